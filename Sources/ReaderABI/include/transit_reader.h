/*
 * transit_reader.h — the plugin ABI of `transit`.
 *
 * This header is the only contract between the `transit` host and a card-family
 * plugin. A plugin is a shared library that exports one symbol,
 * TRANSIT_PLUGIN_ENTRY_SYMBOL, and links nothing of the host: everything it
 * needs (talking to the card, logging, options, building the result) comes
 * through the function table the host hands to its read function.
 *
 * Rules (see docs/ABI.md):
 *  - Buffers belong to the caller. The host never frees plugin memory and the
 *    plugin never frees host memory. Strings are NUL-terminated UTF-8 and are
 *    copied by whoever receives them before the call returns.
 *  - Structs only grow at the end. Every struct starts with its size; a reader
 *    of a struct must not touch a field that lies beyond struct_size. A host
 *    accepts a descriptor larger than it knows and reads only what it knows; a
 *    plugin checks TRANSIT_HOST_HAS(host, field) for each field it uses that
 *    was appended after the first release (marked below), never the size of
 *    the whole table.
 *  - Only the statuses below cross the boundary. Any other value returned by a
 *    plugin is a plugin fault.
 *  - Calls are synchronous and happen on the thread that called read().
 */
#ifndef TRANSIT_READER_H
#define TRANSIT_READER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The ABI version this header describes. */
#define TRANSIT_ABI_VERSION 1

/** The symbol every plugin exports; the ABI version is part of its name. */
#define TRANSIT_PLUGIN_ENTRY_SYMBOL "transit_plugin_entry_v1"

/** Outcome of a plugin read or of a host call (a closed set). */
typedef int32_t transit_status;

/** The read succeeded and the result was built. */
#define TRANSIT_STATUS_OK 0
/** The card is not of this plugin's family; the host tries the next plugin. */
#define TRANSIT_STATUS_NOT_THIS_CARD 1
/** The card refused a command the read depends on (ends the read). */
#define TRANSIT_STATUS_CARD_REFUSED 2
/** The reader or the radio failed, or stopped answering (ends the read). */
#define TRANSIT_STATUS_COMMUNICATION 3
/** The card answered something short, long or odd (ends the read). */
#define TRANSIT_STATUS_MALFORMED_RESPONSE 4
/** The card left the reader (ends the read; no further plugin runs). */
#define TRANSIT_STATUS_SESSION_LOST 5
/** The user cancelled the read (ends the read; no further plugin runs). */
#define TRANSIT_STATUS_CANCELLED 6
/** A fault inside the plugin or a call the host could not honour (ends the read). */
#define TRANSIT_STATUS_INTERNAL 7
/**
 * From a transceive: the card stayed silent (as a FeliCa card does to a Polling
 * for a system it lacks, or to an IDm that is not one of its systems'). The
 * reader itself worked; COMMUNICATION means the reader or the radio failed.
 * Only silence may lead a plugin to NOT_THIS_CARD. Returned by a plugin's
 * read, it ends the read as a communication error.
 */
#define TRANSIT_STATUS_NO_ANSWER 8
/**
 * From a transceive: the answer does not fit the caller's buffer; nothing was
 * written and *response_length holds the size needed. The exchange happened:
 * ask again with a larger buffer only when the command may be repeated.
 */
#define TRANSIT_STATUS_BUFFER_TOO_SMALL 9
/**
 * From classic_read_sector (release 5): no key the host holds opens the sector. Returned by a
 * plugin's read, it ends the read as "the card's sectors are locked": the user is told to bring
 * the card's keys (`--keys`). A plugin that cannot yet tell its card from another's returns
 * NOT_THIS_CARD instead.
 */
#define TRANSIT_STATUS_LOCKED 10

/** Card technology a plugin reads. */
typedef uint32_t transit_technology;
/** FeliCa (JIS X 6319-4) frames. */
#define TRANSIT_TECHNOLOGY_FELICA 1u
/** ISO/IEC 7816-4 APDUs over ISO 14443-4. */
#define TRANSIT_TECHNOLOGY_ISO7816 2u
/**
 * MIFARE Classic (1K, 4K, Mini): sectors the host opens with the user's keys (release 5). The
 * plugin reads through classic_read_sector and classic_key_matches; it never sees a key or a
 * reader's pseudo-APDU.
 */
#define TRANSIT_TECHNOLOGY_MIFARE_CLASSIC 4u
/** MIFARE Ultralight and NTAG (NFC Forum type 2): pages, through ultralight_read_pages (release 5). */
#define TRANSIT_TECHNOLOGY_MIFARE_ULTRALIGHT 8u
/*
 * The technology values are bits: from release 5 a descriptor may name several by OR-ing them
 * (a family whose cards come as MIFARE Classic and as Ultralight, as Troika's do). The host table's
 * technology is always one of them: the card's.
 */

/**
 * Log levels for transit_host_api.log. The host labels each line with its level; DEBUG and INFO
 * lines are shown with --verbose and kept in the log bundle, WARNING lines are shown always
 * (release 4; before, the level was dropped). Another value is logged as INFO.
 */
#define TRANSIT_LOG_DEBUG 0
#define TRANSIT_LOG_INFO 1
#define TRANSIT_LOG_WARNING 2

/**
 * The release of ABI 1 this header describes. Fields appended to a struct are marked with the
 * release that added them: release 1 (the first), 2 (the card's ATR, ATS and historical bytes;
 * the descriptor's options), 3 (max_felica_frame), 4 (passes; a reading without a balance; log
 * levels honoured), 5 (MIFARE Classic and Ultralight: their technologies, the storage calls, the
 * LOCKED status; technologies as bits). A plugin checks TRANSIT_HOST_HAS for a field, never this number.
 */
#define TRANSIT_ABI_RELEASE 5

/*
 * The ABI's vocabulary. Values are strings; every key a host function takes, and every metadata
 * key or value the host interprets, is named here, so a typo is a compile error. A key the host
 * does not know is refused (set_field and the like answer TRANSIT_STATUS_INTERNAL); metadata
 * keys are free, and those below are the ones the host gives a meaning to.
 */

/* Card fields (set_field). */
/** Family name, e.g. "japan-ic" (defaults to the plugin's family). */
#define TRANSIT_FIELD_FAMILY "family"
/** What the card is called, e.g. "EZ-Link" (optional). */
#define TRANSIT_FIELD_CARD_NAME "cardName"
/** The number printed on the card, or the UID/IDm. */
#define TRANSIT_FIELD_SERIAL_NUMBER "serialNumber"
/** ISO 4217 code, e.g. "JPY": the unit of the balance and of every amount and price. */
#define TRANSIT_FIELD_CURRENCY "currency"
/** The card's validity, YYYY-MM-DD. */
#define TRANSIT_FIELD_VALID_FROM "validFrom"
#define TRANSIT_FIELD_VALID_UNTIL "validUntil"

/* Transaction fields (set_transaction_field), of the transaction begun last. */
/** One of the TRANSIT_TYPE_* values. */
#define TRANSIT_TX_TYPE "type"
/** YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS+HH:MM in the card's zone. */
#define TRANSIT_TX_DATE "date"
/** Station or location codes as the card stores them (the user's tables name them). */
#define TRANSIT_TX_ENTRY_STATION "entryStation"
#define TRANSIT_TX_EXIT_STATION "exitStation"
/** The record's type and bytes as the card holds them (hex). */
#define TRANSIT_TX_RAW_TYPE "rawType"
#define TRANSIT_TX_RAW_PAYLOAD "rawPayload"
/**
 * The balance the card stored with the record, decimal minor units, optionally negative ("-120");
 * only where the card stores one.
 */
#define TRANSIT_TX_BALANCE "balance"

/* Transaction types (TRANSIT_TX_TYPE). Top-ups add to the balance, trips and purchases deduct. */
#define TRANSIT_TYPE_TRIP "trip"
#define TRANSIT_TYPE_TOPUP "topup"
#define TRANSIT_TYPE_PURCHASE "purchase"
#define TRANSIT_TYPE_UNKNOWN "unknown"

/*
 * Pass fields (set_pass_field), of the pass begun last (release 4). A pass is a contract, a
 * season ticket or a carnet the card holds.
 */
/** What the card or the network calls it, where known (optional). */
#define TRANSIT_PASS_NAME "name"
/** The raw tariff / product code as the card stores it (required). */
#define TRANSIT_PASS_TARIFF "tariff"
/** YYYY-MM-DD, or YYYY-MM-DDTHH:MM:SS+HH:MM in the card's zone where the card stores a time. */
#define TRANSIT_PASS_VALID_FROM "validFrom"
#define TRANSIT_PASS_VALID_UNTIL "validUntil"
/** Trips left on a carnet, a decimal integer (0 to 4294967295). */
#define TRANSIT_PASS_REMAINING_TRIPS "remainingTrips"
/** The zones it covers, as the network writes them: "1-5", "1,3". */
#define TRANSIT_PASS_ZONES "zones"
/** One of the TRANSIT_PASS_STATUS_* values: what the card says of the pass. */
#define TRANSIT_PASS_STATUS "status"

/* Pass statuses (TRANSIT_PASS_STATUS). Whether a pass has expired the host tells from its dates. */
/** The card marks it usable. */
#define TRANSIT_PASS_STATUS_VALID "valid"
/** Bought but not started (a pass that starts at its first validation). */
#define TRANSIT_PASS_STATUS_UNUSED "unused"
/** The card marks it invalidated, refunded or blocked. */
#define TRANSIT_PASS_STATUS_INVALID "invalid"

/* Metadata keys the host interprets (add_metadata, add_transaction_metadata, add_pass_metadata). */
/** Card: the FeliCa IDm in hex; the archive tells cards apart by it. */
#define TRANSIT_META_IDM "idm"
/** Card: "phone" when the card is a phone's (Mobile FeliCa); text output says so. */
#define TRANSIT_META_MEDIUM "medium"
/** Card value of TRANSIT_META_MEDIUM. */
#define TRANSIT_MEDIUM_PHONE "phone"
/** Card: what named the issuer (shown with --verbose only). */
#define TRANSIT_META_ISSUER_MARKERS "issuerMarkers"
/** Transaction: the region ("0"-"3") of the entry / exit station: a code is unique only with it. */
#define TRANSIT_META_ENTRY_REGION "entryRegion"
#define TRANSIT_META_EXIT_REGION "exitRegion"
/** Transaction: a bus record's line and stop codes. */
#define TRANSIT_META_BUS_LINE_CODE "busLineCode"
#define TRANSIT_META_BUS_STOP_CODE "busStopCode"
/** Transaction: the network whose location codes entryStation/exitStation are, e.g. "250901";
 *  the user's station tables are looked up by network and code (release 4). */
#define TRANSIT_META_NETWORK "network"
/** Transaction: what happened, beyond the type (one of TRANSIT_EVENT_* or the family's own word). */
#define TRANSIT_META_EVENT "event"
/** TRANSIT_META_EVENT values the host gives a meaning to (reports, SFCard Viewer's columns). */
#define TRANSIT_EVENT_AUTO_CHARGE "auto-charge"
#define TRANSIT_EVENT_REFUND "refund"
/** Transaction: the card's record counter: the archive merges reads by it. */
#define TRANSIT_META_SEQUENCE "sequence"
/** Transaction: free text the card stores with the record, shown with it. */
#define TRANSIT_META_USER_DATA "userData"
/** Transaction: raw amounts of a record that stores two (shown with --verbose only). */
#define TRANSIT_META_USAGE_AMOUNT "usageAmount"
#define TRANSIT_META_CHARGE_AMOUNT "chargeAmount"
/**
 * Any key starting with this prefix is personal data (a holder's name, birth date): the host
 * leaves it out of every output unless the user asks (`--personal`) and never stores it in the
 * archive (release 4).
 */
#define TRANSIT_META_PERSONAL_PREFIX "personal."

/** Value types of plugin options (transit_option_spec.type). */
/** Any text. */
#define TRANSIT_OPTION_TEXT 1u
/** A decimal integer, optionally signed (at most 18 digits). */
#define TRANSIT_OPTION_INTEGER 2u
/** `true` or `false`. */
#define TRANSIT_OPTION_BOOLEAN 3u

/**
 * One plugins.conf option a plugin takes (`key=value` on its line). The host
 * checks every plugins.conf line against the plugin's list when it loads it:
 * another key, or a value of another type, is a configuration error naming
 * the file and line. This struct never grows; a later ABI adds a new list.
 */
typedef struct transit_option_spec {
    /** The key, e.g. "balance-offset". */
    const char *name;
    /** What the value must be (TRANSIT_OPTION_*). */
    uint32_t type;
} transit_option_spec;

/**
 * The table of host functions handed to a plugin's read function. The table,
 * its context and every pointer it hands out are valid only during the read()
 * call that received them, and only on the thread that called read(): a call
 * after read() returned, or from another thread, is refused with
 * TRANSIT_STATUS_INTERNAL and touches nothing.
 */
typedef struct transit_host_api {
    /** sizeof(transit_host_api) as the host knows it. */
    uint32_t struct_size;
    /** ABI version the host speaks. */
    uint32_t abi_version;
    /** Opaque host state; pass it back as the first argument of every call. */
    void *context;

    /** The card's technology (TRANSIT_TECHNOLOGY_*). */
    transit_technology technology;
    /** FeliCa: the IDm the reader polled (system 0). ISO 7816: the UID, or NULL. */
    const uint8_t *uid;
    /** Length of uid in bytes. */
    size_t uid_length;
    /** FeliCa: the card's system codes in card order, or NULL when unknown. */
    const uint16_t *system_codes;
    /** Number of entries in system_codes. */
    size_t system_code_count;

    /**
     * Sends one FeliCa command frame (length byte first) and receives the
     * card's frame (length byte first) into the caller's buffer.
     * *response_length is set to the number of bytes written.
     */
    transit_status (*felica_transceive)(void *context,
                                        const uint8_t *command, size_t command_length,
                                        uint8_t *response, size_t response_capacity,
                                        size_t *response_length);

    /**
     * Sends one ISO 7816 command APDU and receives data + SW1 SW2 into the
     * caller's buffer. The host has already handled 61xx and 6Cxx.
     */
    transit_status (*apdu_transceive)(void *context,
                                      const uint8_t *command, size_t command_length,
                                      uint8_t *response, size_t response_capacity,
                                      size_t *response_length);

    /** Logs one line at a TRANSIT_LOG_* level. */
    void (*log)(void *context, int32_t level, const char *message);

    /**
     * The value of a plugins.conf option (`key=value`) for this plugin, or NULL.
     * The string stays valid until read() returns; copy it to keep it.
     */
    const char *(*option)(void *context, const char *key);

    /** Sets a card field (TRANSIT_FIELD_*). */
    transit_status (*set_field)(void *context, const char *key, const char *value);
    /**
     * Sets the balance in minor units of the currency (may be negative). A card that holds no
     * stored value (most Calypso cards) leaves it unset: from release 4 the reading then has no
     * balance; an older host refuses a reading without one.
     */
    transit_status (*set_balance)(void *context, int64_t minor_units);
    /** Adds one string entry to the card's metadata. */
    transit_status (*add_metadata)(void *context, const char *key, const char *value);

    /** Starts a new transaction; the transaction calls below fill it. Add newest first. */
    transit_status (*begin_transaction)(void *context);
    /** Sets a field of the current transaction (TRANSIT_TX_*). */
    transit_status (*set_transaction_field)(void *context, const char *key, const char *value);
    /** Sets the unsigned amount of the current transaction in minor units. */
    transit_status (*set_transaction_amount)(void *context, uint64_t minor_units);
    /** Adds one string entry to the current transaction's metadata. */
    transit_status (*add_transaction_metadata)(void *context, const char *key, const char *value);

    /* Appended in ABI 1 release 2: check TRANSIT_HOST_HAS(host, field) before use. */

    /** The ATR the reader built for the card (PC/SC Part 3, 3.1.3.2.3), or NULL. */
    const uint8_t *atr;
    /** Length of atr in bytes. */
    size_t atr_length;
    /** ISO 14443-4 type A: the card's ATS when the reader reported it, else NULL. */
    const uint8_t *ats;
    /** Length of ats in bytes. */
    size_t ats_length;
    /**
     * ISO 14443-4: the card's historical bytes (from the ATR the reader built),
     * or NULL: enough for a plugin to say "not this card" without an exchange.
     */
    const uint8_t *historical_bytes;
    /** Length of historical_bytes in bytes. */
    size_t historical_bytes_length;

    /* Appended in ABI 1 release 3: check TRANSIT_HOST_HAS(host, max_felica_frame). */

    /**
     * FeliCa: the longest FeliCa frame, length byte included, that the reader
     * carries both ways (its largest command, less what its pass-through adds),
     * or 0 when the reader does not say (frames of up to 255 bytes are then
     * sent). A Read Without Encryption of n blocks is answered with a frame of
     * 13 + 16 n bytes: name no more blocks than fit.
     */
    size_t max_felica_frame;

    /* Appended in ABI 1 release 4: check TRANSIT_HOST_HAS(host, begin_pass) before use. */

    /**
     * Starts a new pass (a contract, a season ticket, a carnet); the pass calls below fill it.
     * Add them in the card's order. A pass must have a TRANSIT_PASS_TARIFF.
     */
    transit_status (*begin_pass)(void *context);
    /** Sets a field of the current pass (TRANSIT_PASS_*). */
    transit_status (*set_pass_field)(void *context, const char *key, const char *value);
    /** Adds one string entry to the current pass's metadata. */
    transit_status (*add_pass_metadata)(void *context, const char *key, const char *value);

    /* Appended in ABI 1 release 5: check TRANSIT_HOST_HAS(host, classic_read_sector) before use. */

    /** MIFARE Classic: the card's sectors (5 Mini, 16 1K, 40 4K); 0 for any other card. */
    uint32_t classic_sector_count;
    /**
     * MIFARE Classic: the data blocks of one sector, 16 bytes each: 3 blocks (48 bytes), or 15
     * (240 bytes) for sectors 32-39 of a 4K card. The trailer is never read: its keys are not the
     * plugin's. The host opens the sector with the keys the user brought, the keys a dump's
     * trailers hold and the generic keys, in the reader's own commands; a sector is opened and
     * read once a card, whichever plugin asks. TRANSIT_STATUS_LOCKED: no key opens it.
     * *response_length is set to the bytes written.
     */
    transit_status (*classic_read_sector)(void *context, uint32_t sector,
                                          uint8_t *response, size_t response_capacity,
                                          size_t *response_length);
    /**
     * MIFARE Classic: whether the key that opened `sector` is one of `digests`, each the 32
     * lowercase hex digits of MD5(salt || key || salt) (RFC 1321; the 6-byte key, the salt as
     * UTF-8), as Metrodroid recognises a system by its keys without shipping them. The plugin
     * never learns the key. *matched is set to 1 or 0. TRANSIT_STATUS_LOCKED: no key opens it.
     */
    transit_status (*classic_key_matches)(void *context, uint32_t sector, const char *salt,
                                          const char *const *digests, size_t digest_count,
                                          int32_t *matched);
    /**
     * MIFARE Ultralight / NTAG: `page_count` pages of 4 bytes from `first_page`, read four at a
     * time. A page past the card's end answers TRANSIT_STATUS_CARD_REFUSED.
     */
    transit_status (*ultralight_read_pages)(void *context, uint32_t first_page, uint32_t page_count,
                                            uint8_t *response, size_t response_capacity,
                                            size_t *response_length);
} transit_host_api;

/**
 * True when the host table `table` carries `field` (a field appended after
 * the first release is absent from an older host's smaller table).
 */
#define TRANSIT_HOST_HAS(table, field) \
    ((table) != NULL && (size_t)(table)->struct_size >= offsetof(transit_host_api, field) + sizeof((table)->field))

/**
 * What a plugin is, returned by its entry symbol. Static storage in the plugin.
 * The host reads struct_size first and only the fields it covers.
 */
typedef struct transit_plugin_descriptor {
    /** sizeof(transit_plugin_descriptor) as the plugin knows it. */
    uint32_t struct_size;
    /** The ABI version this descriptor follows (TRANSIT_ABI_VERSION). */
    uint32_t abi_version;
    /** Short plugin name, e.g. "japan-ic" (at most 64 bytes). */
    const char *name;
    /** Family reported when the plugin sets none, e.g. "japan-ic" (at most 64 bytes). */
    const char *family;
    /** Technology the plugin reads (TRANSIT_TECHNOLOGY_*). */
    transit_technology technology;
    /**
     * FeliCa only: system codes of which the card must carry at least one;
     * when the card's systems are known and none is present the plugin is
     * skipped without RF traffic. NULL/0: always asked. At most 64.
     */
    const uint16_t *system_codes;
    /** Number of entries in system_codes. */
    size_t system_code_count;
    /** Reads the card through the host table and builds the result. */
    transit_status (*read)(const transit_host_api *host);

    /* Appended in ABI 1 release 2: read by a host only when struct_size covers them. */

    /**
     * The plugins.conf options the plugin takes; NULL/0: none (any option on
     * its line is then a configuration error). At most 64.
     */
    const transit_option_spec *options;
    /** Number of entries in options. */
    size_t option_count;
} transit_plugin_descriptor;

/** True when the descriptor `d` carries `field` (for hosts reading plugins built before it). */
#define TRANSIT_DESCRIPTOR_HAS(d, field) \
    ((d) != NULL && (size_t)(d)->struct_size >= offsetof(transit_plugin_descriptor, field) + sizeof((d)->field))

/**
 * The entry point every plugin exports under TRANSIT_PLUGIN_ENTRY_SYMBOL.
 * Returns the plugin's descriptor, or NULL when the plugin does not speak
 * host_abi_version.
 */
typedef const transit_plugin_descriptor *(*transit_plugin_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* TRANSIT_READER_H */
