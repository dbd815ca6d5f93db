extension CardImage {
    /// A MIFARE DESFire card's applications and files, answered to the ISO-wrapped native commands
    /// (`90 INS 00 00 …`; docs/card-image.md, "DESFire"). Part of an `iso7816` image: ISO commands
    /// still go to its `applications`.
    public struct DESFireImage: Codable, Equatable, Sendable {
        public var applications: [DESFireApplicationImage]
        /// Data bytes a frame carries before the card answers `91 AF` (default 59).
        public var frameSize: Int?

        public init(applications: [DESFireApplicationImage], frameSize: Int? = nil) {
            self.applications = applications; self.frameSize = frameSize
        }
    }

    /// One application: its 3-byte AID in wire order (hex, "314553") and its files.
    public struct DESFireApplicationImage: Codable, Equatable, Sendable {
        public var aid: String
        public var files: [DESFireFileImage]

        public init(aid: String, files: [DESFireFileImage]) { self.aid = aid; self.files = files }
    }

    /// One file. `type`: "standard", "backup", "value", "linear-record" or "cyclic-record".
    /// `access`: the two access-rights bytes as the wire and Flipper dumps show them (`RW|Change`,
    /// `Read|Write`; key E free): a file whose Read and Read&Write keys are not E answers `91 AE`.
    public struct DESFireFileImage: Codable, Equatable, Sendable {
        public var id: String
        public var type: String
        public var access: String
        /// Standard and backup files: the contents.
        public var data: String?
        /// Record files: the record size, the most records, and the records, newest first.
        public var recordSize: Int?
        public var maxRecords: Int?
        public var records: [String]?
        /// Value files: the value.
        public var value: Int32?

        public init(id: String, type: String, access: String, data: String? = nil, recordSize: Int? = nil,
                    maxRecords: Int? = nil, records: [String]? = nil, value: Int32? = nil) {
            self.id = id; self.type = type; self.access = access; self.data = data; self.recordSize = recordSize
            self.maxRecords = maxRecords; self.records = records; self.value = value
        }
    }
}
