/*
 * myfamily.c: a complete transit plugin in plain C, to copy and make your own (docs/ABI.md).
 *
 * Build and register it as the guide says:
 *   cc -std=c99 -shared -fPIC $(pkg-config --cflags transit-plugin) myfamily.c -o libmyfamily.so
 *   echo "myfamily $PWD/libmyfamily.so" | sudo tee /etc/transit/plugins.conf.d/50-myfamily.conf
 *   transit plugins                      # myfamily  loaded  ABI 1  …
 *
 * What it reads: an ISO 14443-4 card that answers SELECT of the AID F0 74 72 61 6E 73 69 74
 * ("\xF0transit") and gives a 4-byte big-endian balance to `80 5C 00 00 04`. Put your family's
 * commands in myfamily_read; rename "myfamily" everywhere (the descriptor's name must be the
 * name plugins.conf gives the library).
 *
 * Card data is untrusted radio input: check every length before you index, and answer
 * TRANSIT_STATUS_MALFORMED_RESPONSE for anything odd.
 */
#include <string.h>
#include "transit_reader.h"

/* The application this family's cards carry. */
static const uint8_t myfamily_aid[] = {0xF0, 0x74, 0x72, 0x61, 0x6E, 0x73, 0x69, 0x74};

/* The read: the host calls it with the card on the reader; every host function is called on
   this thread, before it returns. */
static transit_status myfamily_read(const transit_host_api *host) {
    uint8_t command[16];
    uint8_t answer[258];
    size_t length = 0;
    transit_status status;

    /* The host table of the first release is all this plugin uses; a later field is checked with
       TRANSIT_HOST_HAS(host, field) where it is used. */
    if (host == NULL || host->struct_size < offsetof(transit_host_api, atr)) return TRANSIT_STATUS_INTERNAL;

    /* SELECT by AID: 00 A4 04 00 Lc AID 00. Any answer but 90 00: not this family's card. */
    command[0] = 0x00; command[1] = 0xA4; command[2] = 0x04; command[3] = 0x00;
    command[4] = sizeof myfamily_aid;
    memcpy(command + 5, myfamily_aid, sizeof myfamily_aid);
    command[5 + sizeof myfamily_aid] = 0x00;
    status = host->apdu_transceive(host->context, command, 6 + sizeof myfamily_aid, answer, sizeof answer, &length);
    if (status != TRANSIT_STATUS_OK) return status;
    if (length < 2 || answer[length - 2] != 0x90 || answer[length - 1] != 0x00) return TRANSIT_STATUS_NOT_THIS_CARD;

    /* GET BALANCE: 80 5C 00 00 04 -> 4 bytes big-endian + 90 00. */
    static const uint8_t get_balance[] = {0x80, 0x5C, 0x00, 0x00, 0x04};
    status = host->apdu_transceive(host->context, get_balance, sizeof get_balance, answer, sizeof answer, &length);
    if (status != TRANSIT_STATUS_OK) return status;
    if (length != 6) return TRANSIT_STATUS_MALFORMED_RESPONSE;
    if (answer[4] != 0x90 || answer[5] != 0x00) return TRANSIT_STATUS_CARD_REFUSED;
    int64_t balance = ((int64_t)answer[0] << 24) | ((int64_t)answer[1] << 16) | ((int64_t)answer[2] << 8) | answer[3];

    /* The result, field by field: the host checks each (an ISO 4217 currency, a parsable date). */
    const char *currency = host->option(host->context, "currency");
    host->log(host->context, TRANSIT_LOG_INFO, "myfamily card selected");
    if (host->set_field(host->context, "serialNumber", "MYFAMILY-0001") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_field(host->context, "currency", currency ? currency : "EUR") != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    if (host->set_balance(host->context, balance) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;

    /* One record: a top-up of the whole balance, with a date in the card's own zone. */
    if (host->begin_transaction(host->context) != TRANSIT_STATUS_OK) return TRANSIT_STATUS_INTERNAL;
    host->set_transaction_field(host->context, "type", "topup");
    host->set_transaction_field(host->context, "date", "2026-01-02T03:04:05+01:00");
    host->set_transaction_amount(host->context, (uint64_t)balance);
    return TRANSIT_STATUS_OK;
}

/* The plugins.conf options the plugin takes: `myfamily libmyfamily.so currency=NZD`. */
static const transit_option_spec myfamily_options[] = {{"currency", TRANSIT_OPTION_TEXT}};

static const transit_plugin_descriptor myfamily_descriptor = {
    sizeof(transit_plugin_descriptor),
    TRANSIT_ABI_VERSION,
    "myfamily",                 /* name: the one plugins.conf gives the library */
    "myfamily",                 /* family: what `scan --json` says in "family" */
    TRANSIT_TECHNOLOGY_ISO7816, /* or TRANSIT_TECHNOLOGY_FELICA, with system codes below */
    NULL,                       /* FeliCa system codes the card must carry one of */
    0,
    myfamily_read,
    myfamily_options,
    sizeof myfamily_options / sizeof myfamily_options[0],
};

/* The entry point: the host asks with the ABI version it speaks; NULL when this plugin does not. */
const transit_plugin_descriptor *transit_plugin_entry_v1(uint32_t host_abi_version) {
    return host_abi_version == TRANSIT_ABI_VERSION ? &myfamily_descriptor : NULL;
}
