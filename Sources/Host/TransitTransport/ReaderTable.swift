import Synchronization
import TransitModel
/// The readers transit knows, like ccid's supported_readers list: first matching line wins, so a
/// line stands before any broader one. Each line says where it comes from (docs/readers.md has
/// the same table for people, with what is unconfirmed). A reader with no line gets
/// `ReaderProfile.unknown`. Command sizes: ccid's readers/*.txt, dwMaxCCIDMessageLength − 10.
///
/// `lines` are pcscd's readers. A reader transit drives itself has its line beside its driver
/// (TransitUSB's `USBReaderTable`), added once as the process starts (`add`): this module names
/// no such reader, and a new one changes only its driver's module.
package enum ReaderTable {
    /// `FF 00 00 00` on Identiv readers: the load-keys / change-reader-PIN command
    /// (`FF 00 00 00 0A 07 FF <PIN>`, uTrust 3720F reference manual p.77). A FeliCa frame whose
    /// length byte is 07 would collide with it, so neither wrapper that starts so is ever sent.
    private static let identivPIN = L10n.mark("FF 00 00 00 is the load-keys / change-reader-PIN command of Identiv readers (uTrust 3720F manual p.77)")

    /// The lines of readers that transit's own drivers add, after `lines`.
    private static let driven = Mutex([ReaderProfile]())

    /// Adds the lines of the readers a driver module drives (`transit`'s start does, before a
    /// lookup or the plugin worker's fork); a line whose name is there already is not added again.
    package static func add(_ profiles: [ReaderProfile]) {
        driven.withLock { known in
            for profile in profiles where !known.contains(where: { $0.name == profile.name }) { known.append(profile) }
        }
    }

    /// Every line a lookup sees: pcscd's readers', then those the drivers added.
    package static var all: [ReaderProfile] { lines + driven.withLock { $0 } }

    /// pcscd's readers.
    package static let lines: [ReaderProfile] = [
        ReaderProfile(
            name: "ACS ACR122U", patterns: ["ACR122"],
            // acsccid names its 072F:222D (ACR1251U-A2) "ACS ACR122U" too: the ACS direct transmit and
            // Part 3 follow the two documented forms for it (acshk/acsccid supported_readers.txt).
            dialects: [.pn532, .bareFrame, .acsDirect, .part3], maxCommand: 261,
            // MIFARE Classic: ACR122T API v2.02 §5.2-5.4 (Load Keys FF 82 00 00, General Authenticate,
            // Read Binary of at most 16 bytes).
            loadKeys: .acs, blocksPerRead: 1,
            readsTypeB: true, typeBSource: "ACR122U API v2.04 §3.1.2 (the type B ATR) and §6.5 (PICC operating parameter: type B polled by default); nfc-list shows an ISO 14443-4B target on one (nfc-tools/mfcuk issue 48)",
            note: "short APDUs only; libccid lists it as unsupported but loads it (firmware below 2.06 needs ifdDriverOptions 0x04)",
            source: "ACR122U API v2.04 §6.1 and §7.3 (Direct Transmit to the PN532, and the bare frame); libnfc acr122_pcsc.c and nfcpy acr122.py read the answers the same way",
            confidence: .manual),
        ReaderProfile(
            name: "ACS ACR1252U", patterns: ["ACR1252"], dialects: [.acsDirect, .part3], maxCommand: 512,
            // Read Binary of a sector's data blocks in one command: 48 bytes, or 240 in a 4K card's
            // sectors of 16 blocks (ACM1252U-Y3 §5.2.4.3).
            loadKeys: .acs, blocksPerRead: 15,
            readsTypeB: true, typeBSource: "ACM1252U-Y3 reference manual §5.2 (ISO 14443 type A and B cards, the type B ATR)",
            note: "two interfaces: PICC (the card) and SAM (never chosen unless named)",
            source: "ACM1252U-Y3 reference manual §5.2.6 (direct transmit, FeliCa ATR) and §5.2.3 (Part 3 data objects); an opensc-tool log of FF CA and a direct-transmit FeliCa read",
            confidence: .trace),
        ReaderProfile(
            name: "ACS ACR1255U-J1", patterns: ["ACR1255"], dialects: [.acsDirect, .part3],
            loadKeys: .acs, blocksPerRead: 15,
            readsTypeB: true, typeBSource: "the ACR1252U's line (the same ACS firmware family); unconfirmed",
            source: "the ACR1252U's line (the same ACS firmware family); unconfirmed", confidence: .guess),
        ReaderProfile(
            name: "ACS ACR1281U", patterns: ["ACR1281"], dialects: [.acsDirect, .part3],
            // MIFARE Classic: the ACR128 family's volatile session key, FF 82 00 20 and key number 20
            // (ACM1281U-C7 reference manual v1.02 §5.1.3.1; ACR1281S and ACR1283L manuals the same).
            loadKeys: .acsSessionKey,
            readsTypeB: true, typeBSource: "the ACR1252U's line (the same ACS firmware family); unconfirmed",
            note: "libccid moved it to its unsupported list in 2024 (ccid commit 9e2064d)",
            source: "the ACR1252U's line (the same ACS firmware family); unconfirmed", confidence: .guess),
        ReaderProfile(
            name: "ACS ACR1552U", patterns: ["ACR1552"], dialects: [.acsDirect, .part3], maxCommand: 506,
            loadKeys: .acs,
            readsTypeB: true, typeBSource: "the ACR1252U's line (the same ACS firmware family); unconfirmed",
            note: "needs libccid 1.5.3 or later (Debian 13); two interfaces, PICC and SAM",
            source: "the ACR1252U's line (the same ACS firmware family); its driver sends the Part 3 timer 5F46 50C30000", confidence: .guess),
        ReaderProfile(
            name: "Sony RC-S300", patterns: ["RC-S300"], dialects: [.part3], transparentSession: true, maxCommand: 512,
            classicRefusal: L10n.mark("the Sony RC-S300 cannot open MIFARE Classic sectors: no public fact says its Load Keys and General Authenticate work through pcscd; read this card on an ACS, HID OMNIKEY or Identiv reader"),
            readsTypeB: true, typeBSource: "Sony's RC-S300 specification (ISO/IEC 14443 type A and B); through pcscd unconfirmed",
            note: "needs libccid 1.5.0 or later; not an nfcpy reader. The older Sony readers are not PC/SC readers on Linux (transit drives them over USB)",
            source: "oyajun/pcsc-sample (Manage Session FF C2 00 00 … 81 00, Transparent Exchange, … 82 00) and the WebUSB client ogrtk/simple-felica-reader; through SCardTransmit unconfirmed",
            confidence: .code),
        ReaderProfile(
            name: "Sony RC-S660/U", patterns: ["RC-S660"], dialects: [.part3], transparentSession: true, maxCommand: 512,
            classicRefusal: L10n.mark("the Sony RC-S660/U cannot open MIFARE Classic sectors: no public fact says its Load Keys and General Authenticate work through pcscd; read this card on an ACS, HID OMNIKEY or Identiv reader"),
            source: "the RC-S300's line (the same iProduct and CCID features); unconfirmed", confidence: .guess),
        ReaderProfile(
            name: "Identiv / SCM", patterns: ["Identiv", "SCM Micro", "SCL3711", "uTrust"], dialects: [.part3],
            unsafe: [.pn532: identivPIN, .acsDirect: identivPIN],
            loadKeys: .identiv,
            readsTypeB: true, typeBSource: "SCL3711 manual p.26 (the type B ATR: application data, protocol info, MBLI)",
            note: "its own FeliCa commands (FF 40, FF 42, FF 46, FF 4A: CLOUD 370x F manual §6.2.13–6.2.18) are not used: their byte order on the air is unconfirmed; FeliCa ATRs carry the IDm (04 43 FD …)",
            source: "never FF 00 00 00: uTrust 3720F manual p.77; Part 3: the CLOUD 47x0 F reference manual's Transparent Exchange, unconfirmed on the 3700 F (its manual documents only FF 40–4A and the F3 escape)",
            confidence: .guess),
        ReaderProfile(
            name: "HID OMNIKEY", patterns: ["OMNIKEY"], dialects: [],
            loadKeys: .omnikey,
            note: "FF CA gives a FeliCa card's IDm; FeliCa may be switched off in the reader's configuration",
            source: "HID's OMNIKEY sample code (hidglobal/HID-OMNIKEY-Sample-Codes): GET DATA gives the IDm, no FeliCa pass-through is documented",
            confidence: .code),
        ReaderProfile(
            name: "Elatec TWN4", patterns: ["TWN4"], dialects: FeliCaDialect.unknownReaderOrder, maxCommand: 54,
            note: "64-byte CCID messages: one block per FeliCa read; the SmartCard NFC model shows six slots",
            source: "ccid readers/Elatec_TWN4_SmartCard_NFC.txt (dwMaxCCIDMessageLength 64); FeliCa over PC/SC unconfirmed",
            confidence: .guess),
        ReaderProfile(
            name: "vsmartcard virtual reader", patterns: ["Virtual PCD"], dialects: FeliCaDialect.unknownReaderOrder,
            // A phone's remote reader hands the host ISO-DEP cards only, never a storage card's ATR: a
            // MIFARE Classic or Ultralight here is transit-sim's, whose Load Keys form is probed.
            storageCardsUnseen: L10n.mark("a phone passes on ISO-DEP cards only (vsmartcard remote-reader): a MIFARE Classic or Ultralight card held to it is never seen; read it on a PC/SC reader such as an ACR122U"),
            readsTypeB: true, typeBSource: "vsmartcard remote-reader: NFC-A and NFC-B reader mode (MainActivity)",
            note: "a phone running the Remote Smart Card Reader reads ISO 14443-4 cards only, and FF CA reaches the card (an error answer: no UID); a FeliCa card here is a virtual one (transit-sim)",
            source: "vsmartcard: remote-reader MainActivity (NFC-A and NFC-B reader mode) and NFCReader.transmit (every APDU to IsoDep)",
            confidence: .code),
    ]
}
