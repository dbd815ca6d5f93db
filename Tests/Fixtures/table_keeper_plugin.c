/*
 * A plugin that breaks the host table's lifetime rule on purpose: it keeps the table (and an
 * option string) of one read and calls through it in the next, and calls the host from another
 * thread during a read. transit_reader.h says such calls are refused with TRANSIT_STATUS_INTERNAL
 * and touch nothing; this plugin reports what it saw in the result it builds:
 *   serialNumber  FIRST-READ, or STALE-REFUSED / STALE-ACCEPTED for the call through the old table
 *   cardName      THREAD-REFUSED / THREAD-ACCEPTED for the call from another thread
 *   metadata "option"  the option string kept from the first read, read again (it must be intact)
 * It reads the demo card of demo_plugin.c (SELECT F0 74 72 61 6E 73 69 74, balance 80 5C 00 00 04).
 */
#include <pthread.h>
#include <string.h>
#include "transit_reader.h"

static const transit_host_api *kept_table;
static const char *kept_option;

static void *call_from_another_thread(void *arg) {
    const transit_host_api *host = arg;
    static transit_status status;
    status = host->set_field(host->context, "cardName", "FROM-ANOTHER-THREAD");
    return &status;
}

static transit_status keeper_read(const transit_host_api *host) {
    const char *serial = "FIRST-READ";
    if (kept_table != NULL) {
        transit_status stale = kept_table->set_field(kept_table->context, "serialNumber", "FROM-AN-OLD-READ");
        serial = stale == TRANSIT_STATUS_OK ? "STALE-ACCEPTED" : "STALE-REFUSED";
    }
    pthread_t thread;
    void *result = NULL;
    if (pthread_create(&thread, NULL, call_from_another_thread, (void *)host) != 0) return TRANSIT_STATUS_INTERNAL;
    pthread_join(thread, &result);
    const char *name = *(transit_status *)result == TRANSIT_STATUS_OK ? "THREAD-ACCEPTED" : "THREAD-REFUSED";

    static const uint8_t select[] = {0x00, 0xA4, 0x04, 0x00, 0x08, 0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74, 0x00};
    uint8_t answer[258];
    size_t length = 0;
    if (host->apdu_transceive(host->context, select, sizeof select, answer, sizeof answer, &length) != TRANSIT_STATUS_OK) {
        return TRANSIT_STATUS_COMMUNICATION;
    }
    if (length < 2 || answer[length - 2] != 0x90) return TRANSIT_STATUS_NOT_THIS_CARD;

    const char *option = host->option(host->context, "note");
    if (host->set_field(host->context, "serialNumber", serial) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_field(host->context, "cardName", name) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_field(host->context, "currency", "EUR") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_balance(host->context, 1) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (kept_option != NULL) host->add_metadata(host->context, "option", kept_option);
    kept_table = host;
    kept_option = option;
    return TRANSIT_STATUS_OK;
}

static const transit_option_spec keeper_options[] = {{"note", TRANSIT_OPTION_TEXT}};

static const transit_plugin_descriptor keeper_descriptor = {
    sizeof(transit_plugin_descriptor), TRANSIT_ABI_VERSION, "keeper", "keeper", TRANSIT_TECHNOLOGY_ISO7816, NULL, 0,
    keeper_read, keeper_options, 1,
};

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &keeper_descriptor : NULL;
}
