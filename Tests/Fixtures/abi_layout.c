/*
 * The ABI's layout, pinned (LP64, as on x86_64 and aarch64 Linux). A plugin built against one
 * release of transit_reader.h must keep working with every later host: a field that moves breaks
 * every plugin ever built. This file fails to compile when one does. Fields appended later get a
 * line here; no line is ever changed.
 */
#include <stddef.h>
#include "transit_reader.h"

#define PIN(type, field, offset) _Static_assert(offsetof(type, field) == (offset), #type "." #field " moved")

PIN(transit_host_api, struct_size, 0);
PIN(transit_host_api, abi_version, 4);
PIN(transit_host_api, context, 8);
PIN(transit_host_api, technology, 16);
PIN(transit_host_api, uid, 24);
PIN(transit_host_api, uid_length, 32);
PIN(transit_host_api, system_codes, 40);
PIN(transit_host_api, system_code_count, 48);
PIN(transit_host_api, felica_transceive, 56);
PIN(transit_host_api, apdu_transceive, 64);
PIN(transit_host_api, log, 72);
PIN(transit_host_api, option, 80);
PIN(transit_host_api, set_field, 88);
PIN(transit_host_api, set_balance, 96);
PIN(transit_host_api, add_metadata, 104);
PIN(transit_host_api, begin_transaction, 112);
PIN(transit_host_api, set_transaction_field, 120);
PIN(transit_host_api, set_transaction_amount, 128);
PIN(transit_host_api, add_transaction_metadata, 136);
/* appended */
PIN(transit_host_api, atr, 144);
PIN(transit_host_api, atr_length, 152);
PIN(transit_host_api, ats, 160);
PIN(transit_host_api, ats_length, 168);
PIN(transit_host_api, historical_bytes, 176);
PIN(transit_host_api, historical_bytes_length, 184);
PIN(transit_host_api, max_felica_frame, 192);
PIN(transit_host_api, begin_pass, 200);
PIN(transit_host_api, set_pass_field, 208);
PIN(transit_host_api, add_pass_metadata, 216);
PIN(transit_host_api, classic_sector_count, 224);
PIN(transit_host_api, classic_read_sector, 232);
PIN(transit_host_api, classic_key_matches, 240);
PIN(transit_host_api, ultralight_read_pages, 248);
_Static_assert(sizeof(transit_host_api) == 256, "transit_host_api grew without a pin");

PIN(transit_plugin_descriptor, struct_size, 0);
PIN(transit_plugin_descriptor, abi_version, 4);
PIN(transit_plugin_descriptor, name, 8);
PIN(transit_plugin_descriptor, family, 16);
PIN(transit_plugin_descriptor, technology, 24);
PIN(transit_plugin_descriptor, system_codes, 32);
PIN(transit_plugin_descriptor, system_code_count, 40);
PIN(transit_plugin_descriptor, read, 48);
/* appended */
PIN(transit_plugin_descriptor, options, 56);
PIN(transit_plugin_descriptor, option_count, 64);
_Static_assert(sizeof(transit_plugin_descriptor) == 72, "transit_plugin_descriptor grew without a pin");

PIN(transit_option_spec, name, 0);
PIN(transit_option_spec, type, 8);
_Static_assert(sizeof(transit_option_spec) == 16, "transit_option_spec never grows");

_Static_assert(TRANSIT_STATUS_OK == 0 && TRANSIT_STATUS_NOT_THIS_CARD == 1 && TRANSIT_STATUS_CARD_REFUSED == 2
               && TRANSIT_STATUS_COMMUNICATION == 3 && TRANSIT_STATUS_MALFORMED_RESPONSE == 4
               && TRANSIT_STATUS_SESSION_LOST == 5 && TRANSIT_STATUS_CANCELLED == 6 && TRANSIT_STATUS_INTERNAL == 7
               && TRANSIT_STATUS_NO_ANSWER == 8 && TRANSIT_STATUS_BUFFER_TOO_SMALL == 9, "a status changed its value");
_Static_assert(TRANSIT_STATUS_LOCKED == 10, "a status changed its value");
_Static_assert(TRANSIT_TECHNOLOGY_FELICA == 1 && TRANSIT_TECHNOLOGY_ISO7816 == 2 && TRANSIT_TECHNOLOGY_MIFARE_CLASSIC == 4
               && TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT == 8, "a technology changed its value (they are bits from release 5)");
