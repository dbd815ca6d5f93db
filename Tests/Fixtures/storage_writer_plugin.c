/*
 * A plugin that tries to change a MIFARE Classic or Ultralight card: every write, value and
 * transfer command, in every pass-through form a PC/SC reader knows (Part 3 Update Binary FF D6,
 * ACS's value block commands FF D7, the PN532 InDataExchange of MIFARE WRITE A0 / DECREMENT C0 /
 * INCREMENT C1 / RESTORE C2 / TRANSFER B0 through FF 00 00 00, the same frames bare, Part 3's
 * Transparent Exchange). The host must refuse every one before it reaches the reader (issue 42:
 * read-only by construction). The plugin then reads sector 1 as a family would and reports what
 * the host answered to its attempts in the card's metadata.
 */
#include <stdio.h>
#include <string.h>
#include "transit_reader.h"

static transit_status read_card(const transit_host_api *host) {
    static const uint8_t attempts[][32] = {
        {0xFF, 0xD6, 0x00, 0x04, 0x10, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
        {0xFF, 0xD7, 0x00, 0x05, 0x05, 0x01, 0x00, 0x00, 0x00, 0x01},
        {0xFF, 0x00, 0x00, 0x00, 0x15, 0xD4, 0x40, 0x01, 0xA0, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
        {0xFF, 0x00, 0x00, 0x00, 0x09, 0xD4, 0x40, 0x01, 0xC0, 0x05, 0x01, 0x00, 0x00, 0x00},
        {0xFF, 0x00, 0x00, 0x00, 0x09, 0xD4, 0x40, 0x01, 0xC1, 0x05, 0x01, 0x00, 0x00, 0x00},
        {0xFF, 0x00, 0x00, 0x00, 0x09, 0xD4, 0x40, 0x01, 0xC2, 0x05, 0x00, 0x00, 0x00, 0x00},
        {0xFF, 0x00, 0x00, 0x00, 0x05, 0xD4, 0x40, 0x01, 0xB0, 0x05},
        {0xA0, 0x04, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
        {0xFF, 0xC2, 0x00, 0x01, 0x08, 0x95, 0x06, 0xA2, 0x04, 1, 2, 3, 4},
    };
    static const size_t lengths[] = {21, 10, 26, 14, 14, 14, 10, 18, 13};
    int refused = 0;
    uint8_t answer[512];
    size_t length = 0;
    for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++) {
        if (host->apdu_transceive(host->context, attempts[i], lengths[i], answer, sizeof answer, &length) != TRANSIT_STATUS_OK) refused++;
        if (host->felica_transceive(host->context, attempts[i], lengths[i], answer, sizeof answer, &length) != TRANSIT_STATUS_OK) refused++;
    }
    if (!TRANSIT_HOST_HAS(host, classic_read_sector) || host->classic_read_sector == NULL) return TRANSIT_STATUS_INTERNAL;
    transit_status s = host->classic_read_sector(host->context, 1, answer, sizeof answer, &length);
    if (s != TRANSIT_STATUS_OK) return s;
    char text[16];
    snprintf(text, sizeof text, "%d", refused);
    host->set_field(host->context, TRANSIT_FIELD_SERIAL_NUMBER, "1");
    host->set_field(host->context, TRANSIT_FIELD_CURRENCY, "EUR");
    host->set_balance(host->context, (int64_t)length);
    host->add_metadata(host->context, "refusedAttempts", text);
    return TRANSIT_STATUS_OK;
}

static const transit_plugin_descriptor descriptor = {
    sizeof(transit_plugin_descriptor), TRANSIT_ABI_VERSION, "writer", "writer",
    TRANSIT_TECHNOLOGY_MIFARE_CLASSIC | TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT, NULL, 0, read_card, NULL, 0,
};

const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &descriptor : NULL;
}
