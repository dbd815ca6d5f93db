/*
 * The tests' demo plugin in plain C, written against transit_reader.h alone: the proof that the
 * ABI needs no Swift. (Plugin authors start from docs/examples/myfamily.c; the variants that
 * break the ABI or attack the host are in hostile_plugin.c.)
 *
 * It recognises an ISO 14443-4 card that answers SELECT of the demo AID F0 74 72 61 6E 73 69 74
 * ("\xF0transit") and reads a 4-byte big-endian balance with `80 5C 00 00 04`.
 * Built as cc -std=c99 -shared -fPIC -I Sources/ReaderABI/include [-DDEMO_NAME=\"x\"] (the name
 * plugins.conf gives it; default "demo").
 */
#include <string.h>
#include "transit_reader.h"

#ifndef DEMO_NAME
#define DEMO_NAME "demo"
#endif

static const uint8_t demo_aid[] = {0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74};

static transit_status demo_read(const transit_host_api *host) {
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
    if (host->set_field(host->context, "currency", currency ? currency : "EUR") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_balance(host->context, balance) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->begin_transaction(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    host->set_transaction_field(host->context, "type", "topup");
    host->set_transaction_field(host->context, "date", "2026-01-02T03:04:05+01:00");
    host->set_transaction_amount(host->context, (uint64_t)balance);
    host->add_transaction_metadata(host->context, "source", "c");
    return TRANSIT_STATUS_OK;
}

/* The plugins.conf options the plugin takes: currency=XXX (the ISO 4217 code of the balance). */
static const transit_option_spec demo_options[] = {{"currency", TRANSIT_OPTION_TEXT}};

static const transit_plugin_descriptor demo_descriptor = {
    sizeof(transit_plugin_descriptor),
    TRANSIT_ABI_VERSION,
    DEMO_NAME,
    "demo",
    TRANSIT_TECHNOLOGY_ISO7816,
    NULL,
    0,
    demo_read,
    demo_options,
    sizeof demo_options / sizeof demo_options[0],
};

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &demo_descriptor : NULL;
}
