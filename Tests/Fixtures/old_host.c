/*
 * A host of the first release, in plain C: its table ends at add_transaction_metadata (144
 * bytes), as a transit built before the appended fields hands it. It loads one plugin library
 * and runs its read against a card given as APDU pairs, then prints what the plugin built.
 *
 *   old_host LIBRARY NAME COMMANDHEX=ANSWERHEX...
 *
 * Output: one line per call the plugin made into the result builder; exit 0 when read() returned
 * OK, 1 otherwise. Plugins that check TRANSIT_HOST_HAS (and PluginKit) must work with it.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "transit_reader.h"

static int pair_count;
static char **pairs;

static void hex(const uint8_t *b, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02X", b[i]);
    out[2 * n] = 0;
}

static transit_status apdu(void *ctx, const uint8_t *cmd, size_t len, uint8_t *out, size_t cap, size_t *outlen) {
    (void)ctx;
    char key[1024];
    if (len > 500) return TRANSIT_STATUS_COMMUNICATION;
    hex(cmd, len, key);
    for (int i = 0; i < pair_count; i++) {
        size_t k = strlen(key);
        if (strncmp(pairs[i], key, k) == 0 && pairs[i][k] == '=') {
            const char *a = pairs[i] + k + 1;
            size_t n = strlen(a) / 2;
            if (n > cap) return TRANSIT_STATUS_BUFFER_TOO_SMALL;
            for (size_t j = 0; j < n; j++) sscanf(a + 2 * j, "%2hhx", &out[j]);
            *outlen = n;
            return TRANSIT_STATUS_OK;
        }
    }
    out[0] = 0x6A; out[1] = 0x82; *outlen = 2; /* file not found */
    return TRANSIT_STATUS_OK;
}

static transit_status felica(void *ctx, const uint8_t *c, size_t l, uint8_t *o, size_t cap, size_t *ol) {
    (void)ctx; (void)c; (void)l; (void)o; (void)cap; (void)ol;
    return TRANSIT_STATUS_NO_ANSWER;
}
static void log_line(void *ctx, int32_t level, const char *m) { (void)ctx; (void)level; printf("log %s\n", m); }
static const char *option(void *ctx, const char *key) { (void)ctx; (void)key; return NULL; }
static transit_status set_field(void *ctx, const char *k, const char *v) { (void)ctx; printf("field %s=%s\n", k, v); return 0; }
static transit_status set_balance(void *ctx, int64_t v) { (void)ctx; printf("balance %lld\n", (long long)v); return 0; }
static transit_status add_metadata(void *ctx, const char *k, const char *v) { (void)ctx; printf("metadata %s=%s\n", k, v); return 0; }
static transit_status begin_transaction(void *ctx) { (void)ctx; printf("transaction\n"); return 0; }
static transit_status set_tfield(void *ctx, const char *k, const char *v) { (void)ctx; printf("  %s=%s\n", k, v); return 0; }
static transit_status set_amount(void *ctx, uint64_t v) { (void)ctx; printf("  amount=%llu\n", (unsigned long long)v); return 0; }
static transit_status add_tmetadata(void *ctx, const char *k, const char *v) { (void)ctx; printf("  metadata %s=%s\n", k, v); return 0; }

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) { fprintf(stderr, "%s\n", dlerror()); return 2; }
    transit_plugin_entry_fn entry = (transit_plugin_entry_fn)dlsym(lib, TRANSIT_PLUGIN_ENTRY_SYMBOL);
    const transit_plugin_descriptor *d = entry ? entry(1) : NULL;
    if (!d || strcmp(d->name, argv[2]) != 0) return 2;
    pairs = argv + 3;
    pair_count = argc - 3;
    static const uint8_t uid[] = {0x04, 0x11, 0x22, 0x33};
    transit_host_api table;
    memset(&table, 0xAB, sizeof table); /* what lies past the old table is garbage to the plugin */
    table.struct_size = (uint32_t)offsetof(transit_host_api, atr);
    table.abi_version = 1;
    table.context = NULL;
    table.technology = TRANSIT_TECHNOLOGY_ISO7816;
    table.uid = uid; table.uid_length = sizeof uid;
    table.system_codes = NULL; table.system_code_count = 0;
    table.felica_transceive = felica; table.apdu_transceive = apdu;
    table.log = log_line; table.option = option;
    table.set_field = set_field; table.set_balance = set_balance; table.add_metadata = add_metadata;
    table.begin_transaction = begin_transaction; table.set_transaction_field = set_tfield;
    table.set_transaction_amount = set_amount; table.add_transaction_metadata = add_tmetadata;
    transit_status status = d->read(&table);
    printf("status %d\n", status);
    return status == TRANSIT_STATUS_OK ? 0 : 1;
}
