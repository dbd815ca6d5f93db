/*
 * The demo plugin's variants for the tests: plugins that break the ABI, outgrow it or attack the
 * host (CPluginBuilder builds this file when a test names a variant). Without a variant it is
 * demo_plugin.c; plugin authors start from docs/examples/myfamily.c, not from here.
 *
 * It recognises an ISO 14443-4 card that answers SELECT of the demo AID F0 74 72 61 6E 73 69 74
 * ("\xF0transit") and reads a 4-byte big-endian balance with `80 5C 00 00 04`.
 *
 * Variants (cc -shared -fPIC -I Sources/ReaderABI/include -DVARIANT):
 *   -DDEMO_WRONG_ABI      descriptor claims ABI 2
 *   -DDEMO_REFUSE_ABI     entry point answers NULL
 *   -DDEMO_UNKNOWN_STATUS read returns 42, a status outside the closed set
 *   -DDEMO_LOOP           read asks the card again and again, ignoring failures, then says
 *                         "not this card" (the host must end the read as a plugin fault)
 *   -DDEMO_HUGE_SYSTEM_CODES descriptor claims SIZE_MAX system codes (the host must refuse it
 *                         without reading them)
 *   -DDEMO_OLD_DESCRIPTOR descriptor of the first release (no options fields), as a plugin built
 *                         before they were appended
 *   -DDEMO_PASSES         (with DEMO_NEWER) two passes, no balance and personal metadata on a host of
 *                         release 4; the balance alone on an older host
 *   -DDEMO_NEWER          descriptor larger than the host knows (fields of a later release),
 *                         and cardName says whether the host table has historical_bytes
 *   -DDEMO_ESCAPE         read tries open, socket, execve and setuid, logs what each gave, and
 *                         returns INTERNAL when all failed (OK with cardName "escaped" otherwise)
 *   -DDEMO_FORGE_DONE     read writes a "done" message of its own to the worker's pipe (fd 4),
 *                         with a reading no result builder would pass (currency ZZZ)
 *   -DDEMO_RAW_TRANSMIT   read asks the host 2,100 exchanges through the worker's pipe itself
 *                         (fds 3 and 4), past the budget the worker's table would enforce
 *   -DDEMO_CHATTY         read logs 400 lines of 4,000 bytes (1.6 MB)
 *   -DDEMO_NAME=\"x\"     plugin name (default "demo")
 */
#if defined(DEMO_ESCAPE) || defined(DEMO_FORGE_DONE) || defined(DEMO_RAW_TRANSMIT)
#define _POSIX_C_SOURCE 200809L /* the hostile variants call POSIX directly */
#endif
#include <stdio.h>
#include <string.h>
#include "transit_reader.h"

#ifndef DEMO_NAME
#define DEMO_NAME "demo"
#endif

static const uint8_t demo_aid[] = {0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74};

#if defined(DEMO_ESCAPE) || defined(DEMO_FORGE_DONE) || defined(DEMO_RAW_TRANSMIT)
/* The variants that step outside the ABI: what a hostile plugin could try in the worker. */
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#if !defined(DEMO_ESCAPE)
/* One message on the worker's pipe: a type byte, a 32-bit big-endian length, the payload. */
static void demo_send(int fd, uint8_t kind, const void *payload, uint32_t n) {
    uint8_t head[5] = {kind, (uint8_t)(n >> 24), (uint8_t)(n >> 16), (uint8_t)(n >> 8), (uint8_t)n};
    if (write(fd, head, 5) != 5 || (n && write(fd, payload, n) != (ssize_t)n)) { /* the test sees the outcome */ }
}
#endif
#endif

static transit_status demo_read(const transit_host_api *host) {
#ifdef DEMO_ESCAPE
    char line[160];
    int escaped = 0;
    int fd = open("/etc/passwd", O_RDONLY);
    snprintf(line, sizeof line, "open: %s", fd >= 0 ? "opened" : strerror(errno));
    host->log(host->context, TRANSIT_LOG_INFO, line);
    escaped |= fd >= 0;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    snprintf(line, sizeof line, "socket: %s", s >= 0 ? "made" : strerror(errno));
    host->log(host->context, TRANSIT_LOG_INFO, line);
    escaped |= s >= 0;
    char *argv[] = {"/bin/true", NULL};
    execve("/bin/true", argv, NULL);
    snprintf(line, sizeof line, "execve: %s", strerror(errno));
    host->log(host->context, TRANSIT_LOG_INFO, line);
    int u = setuid(0);
    snprintf(line, sizeof line, "setuid: %s", u == 0 ? "root" : strerror(errno));
    host->log(host->context, TRANSIT_LOG_INFO, line);
    escaped |= u == 0;
    if (!escaped) return TRANSIT_STATUS_INTERNAL;
    host->set_field(host->context, "serialNumber", "1");
    host->set_field(host->context, "cardName", "escaped");
    host->set_field(host->context, "currency", "EUR");
    host->set_balance(host->context, 0);
    return TRANSIT_STATUS_OK;
#elif defined(DEMO_FORGE_DONE)
    (void)host;
    static const char done[] = "{\"reading\":{\"family\":\"forged\",\"serialNumber\":\"1\",\"balance\":5,\"currency\":\"ZZZ\","
                               "\"metadata\":{},\"transactions\":[]},\"refusedDialects\":[],\"outcomes\":[]}";
    demo_send(4, 0x16, done, sizeof done - 1);
    pause(); /* the host decides now */
    return TRANSIT_STATUS_NOT_THIS_CARD;
#elif defined(DEMO_RAW_TRANSMIT)
    (void)host;
    static const uint8_t select_mf[] = {0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00};
    uint8_t buffer[300];
    for (int i = 0; i < 2100; i++) {
        demo_send(4, 0x11, select_mf, sizeof select_mf);
        uint8_t head[5];
        if (read(3, head, 5) != 5) break;
        uint32_t n = (uint32_t)head[1] << 24 | (uint32_t)head[2] << 16 | (uint32_t)head[3] << 8 | head[4];
        if (n > sizeof buffer || read(3, buffer, n) != (ssize_t)n) break;
    }
    return TRANSIT_STATUS_NOT_THIS_CARD;
#elif defined(DEMO_CHATTY)
    char line[4001];
    memset(line, 'x', 4000);
    line[4000] = 0;
    for (int i = 0; i < 400; i++) host->log(host->context, TRANSIT_LOG_INFO, line);
    return TRANSIT_STATUS_NOT_THIS_CARD;
#elif defined(DEMO_UNKNOWN_STATUS)
    (void)host;
    return 42;
#elif defined(DEMO_LOOP)
    static const uint8_t select_mf[] = {0x00, 0xA4, 0x00, 0x00, 0x02, 0x3F, 0x00};
    uint8_t answer[258];
    size_t length = 0;
    int failures = 0;
    while (failures < 5) {
        if (host->apdu_transceive(host->context, select_mf, sizeof select_mf, answer, sizeof answer, &length) != TRANSIT_STATUS_OK) {
            failures++;
        }
    }
    return TRANSIT_STATUS_NOT_THIS_CARD;
#else
    uint8_t command[16];
    uint8_t answer[258];
    size_t length = 0;
    transit_status status;

    /* The table of the first release is all this plugin needs; later fields are checked where used
       (TRANSIT_HOST_HAS), never the size of the whole table. */
    if (host == NULL || host->struct_size < offsetof(transit_host_api, atr)) return TRANSIT_STATUS_INTERNAL;

    /* SELECT by AID: 00 A4 04 00 Lc AID 00 */
    command[0] = 0x00; command[1] = 0xA4; command[2] = 0x04; command[3] = 0x00;
    command[4] = sizeof demo_aid;
    memcpy(command + 5, demo_aid, sizeof demo_aid);
    command[5 + sizeof demo_aid] = 0x00;
    status = host->apdu_transceive(host->context, command, 6 + sizeof demo_aid, answer, sizeof answer, &length);
    if (status != TRANSIT_STATUS_OK) return status;
    if (length < 2 || answer[length - 2] != 0x90 || answer[length - 1] != 0x00) return TRANSIT_STATUS_NOT_THIS_CARD;

    /* GET BALANCE: 80 5C 00 00 04 -> 4 bytes big-endian + 90 00 */
    const uint8_t get_balance[] = {0x80, 0x5C, 0x00, 0x00, 0x04};
    status = host->apdu_transceive(host->context, get_balance, sizeof get_balance, answer, sizeof answer, &length);
    if (status != TRANSIT_STATUS_OK) return status;
    if (length != 6) return TRANSIT_STATUS_MALFORMED_RESPONSE;
    if (answer[4] != 0x90 || answer[5] != 0x00) return TRANSIT_STATUS_CARD_REFUSED;
    int64_t balance = ((int64_t)answer[0] << 24) | ((int64_t)answer[1] << 16) | ((int64_t)answer[2] << 8) | answer[3];

    const char *currency = host->option(host->context, "currency");
    host->log(host->context, TRANSIT_LOG_INFO, "demo card selected");
    if (host->set_field(host->context, "serialNumber", "DEMO-0001") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
#ifdef DEMO_NEWER
    /* A field appended after the first release: used only when this host's table has it. */
    char name[64];
    if (TRANSIT_HOST_HAS(host, historical_bytes)) {
        snprintf(name, sizeof name, "historical bytes: %zu", host->historical_bytes_length);
    } else {
        snprintf(name, sizeof name, "no historical bytes");
    }
    host->set_field(host->context, "cardName", name);
#endif
    if (host->set_field(host->context, "currency", currency ? currency : "EUR") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
#ifdef DEMO_PASSES
    /* Passes (release 4): written only to a host whose table has them; a card without a stored
       value sets no balance there, and an older host gets the balance it requires. */
    if (TRANSIT_HOST_HAS(host, add_pass_metadata)) {
        if (host->begin_pass(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
        host->set_pass_field(host->context, TRANSIT_PASS_NAME, "Monthly pass");
        host->set_pass_field(host->context, TRANSIT_PASS_TARIFF, "0001");
        host->set_pass_field(host->context, TRANSIT_PASS_VALID_FROM, "2026-12-01");
        host->set_pass_field(host->context, TRANSIT_PASS_VALID_UNTIL, "2026-12-31");
        host->set_pass_field(host->context, TRANSIT_PASS_ZONES, "1-5");
        host->set_pass_field(host->context, TRANSIT_PASS_STATUS, TRANSIT_PASS_STATUS_VALID);
        host->add_pass_metadata(host->context, TRANSIT_META_NETWORK, "250901");
        if (host->begin_pass(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
        host->set_pass_field(host->context, TRANSIT_PASS_TARIFF, "5000");
        host->set_pass_field(host->context, TRANSIT_PASS_VALID_UNTIL, "2026-11-30");
        host->set_pass_field(host->context, TRANSIT_PASS_REMAINING_TRIPS, "7");
        /* A value of the wrong form is refused, and nothing is stored. */
        if (host->set_pass_field(host->context, TRANSIT_PASS_REMAINING_TRIPS, "-1") == TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
        if (host->set_pass_field(host->context, "colour", "blue") == TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
        host->add_metadata(host->context, TRANSIT_META_PERSONAL_PREFIX "name", "Jeanne Exemple");
        host->log(host->context, TRANSIT_LOG_WARNING, "two passes written");
        host->log(host->context, TRANSIT_LOG_DEBUG, "a debug line");
    } else {
        host->set_field(host->context, "cardName", "no passes on this host");
        if (host->set_balance(host->context, balance) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    }
#else
    if (host->set_balance(host->context, balance) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
#endif
    if (host->begin_transaction(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    host->set_transaction_field(host->context, "type", "topup");
    host->set_transaction_field(host->context, "date", "2026-01-02T03:04:05+01:00");
    host->set_transaction_amount(host->context, (uint64_t)balance);
    host->add_transaction_metadata(host->context, "source", "c");
    return TRANSIT_STATUS_OK;
#endif
}

#ifdef DEMO_HUGE_SYSTEM_CODES
static const uint16_t demo_aid_codes[] = {0x0003};
#endif

/* The plugins.conf options the plugin takes: currency=XXX (the ISO 4217 code of the balance). */
static const transit_option_spec demo_options[] = {{"currency", TRANSIT_OPTION_TEXT}};

#if defined(DEMO_NEWER)
/* The descriptor of a later release: the host reads what it knows and skips the rest. */
static const struct {
    transit_plugin_descriptor known;
    const void *future_field;
    size_t future_count;
} demo_newer = {
    {
        sizeof demo_newer, TRANSIT_ABI_VERSION, DEMO_NAME, "demo", TRANSIT_TECHNOLOGY_ISO7816, NULL, 0, demo_read,
        demo_options, 1,
    },
    NULL,
    0,
};
#else
static const transit_plugin_descriptor demo_descriptor = {
#ifdef DEMO_OLD_DESCRIPTOR
    offsetof(transit_plugin_descriptor, options),
#else
    sizeof(transit_plugin_descriptor),
#endif
#ifdef DEMO_WRONG_ABI
    2,
#else
    TRANSIT_ABI_VERSION,
#endif
    DEMO_NAME,
    "demo",
    TRANSIT_TECHNOLOGY_ISO7816,
#ifdef DEMO_HUGE_SYSTEM_CODES
    demo_aid_codes,
    SIZE_MAX,
#else
    NULL,
    0,
#endif
    demo_read,
    demo_options,
    sizeof demo_options / sizeof demo_options[0],
};
#endif

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
#ifdef DEMO_REFUSE_ABI
    (void)host_abi_version;
    return NULL;
#else
#ifdef DEMO_NEWER
    return host_abi_version == TRANSIT_ABI_VERSION ? &demo_newer.known : NULL;
#else
    return host_abi_version == TRANSIT_ABI_VERSION ? &demo_descriptor : NULL;
#endif
#endif
}
