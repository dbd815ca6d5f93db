/*
 * A hostile plugin for the output tests: it reads the demo card of demo_plugin.c (SELECT of the
 * AID F0 74 72 61 6E 73 69 74, balance with 80 5C 00 00 04) and fills every string it can with
 * control characters: a newline that would forge a "Balance:" line, ESC sequences (clear screen,
 * colour), a tab, a carriage return, DEL and the C1 control CSI (U+009B, UTF-8 C2 9B). It logs a
 * line with an ESC sequence too (shown with --verbose).
 *
 * Build: cc -shared -fPIC -I Sources/ReaderABI/include control_chars_plugin.c
 */
#include <string.h>
#include "transit_reader.h"

static const uint8_t demo_aid[] = {0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74};

static transit_status controls_read(const transit_host_api *host) {
    uint8_t command[16];
    uint8_t answer[258];
    size_t length = 0;
    transit_status status;

    if (host == NULL || host->struct_size < sizeof(transit_host_api)) return TRANSIT_STATUS_INTERNAL;
    command[0] = 0x00; command[1] = 0xA4; command[2] = 0x04; command[3] = 0x00;
    command[4] = sizeof demo_aid;
    memcpy(command + 5, demo_aid, sizeof demo_aid);
    command[5 + sizeof demo_aid] = 0x00;
    status = host->apdu_transceive(host->context, command, 6 + sizeof demo_aid, answer, sizeof answer, &length);
    if (status != TRANSIT_STATUS_OK) return status;
    if (length < 2 || answer[length - 2] != 0x90 || answer[length - 1] != 0x00) return TRANSIT_STATUS_NOT_THIS_CARD;

    host->log(host->context, TRANSIT_LOG_INFO, "log line\x1b[2J\nBalance: forged");
    if (host->set_field(host->context, "serialNumber", "EVIL-1\nBalance: \xc2\xa5" "999999") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_field(host->context, "cardName", "Evil\x1b[31mRed\x1b[0m") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_field(host->context, "currency", "EUR") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_balance(host->context, 258) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->add_metadata(host->context, "note", "tab\there\rcr del\x7f csi\xc2\x9b" "2J") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->begin_transaction(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    host->set_transaction_field(host->context, "type", "trip");
    host->set_transaction_field(host->context, "date", "2026-01-02");
    host->set_transaction_field(host->context, "entryStation", "A\nBalance: \xc2\xa5" "1");
    host->set_transaction_amount(host->context, 100);
    host->add_transaction_metadata(host->context, "line", "\x1b]0;title\x07");
    return TRANSIT_STATUS_OK;
}

static const transit_plugin_descriptor controls_descriptor = {
    sizeof(transit_plugin_descriptor),
    TRANSIT_ABI_VERSION,
    "controls",
    "controls",
    TRANSIT_TECHNOLOGY_ISO7816,
    NULL,
    0,
    controls_read,
    NULL,
    0,
};

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &controls_descriptor : NULL;
}
