/// A minimal, bounded ASN.1 BER/DER tag-length-value reader over borrowed bytes: just what app receipts need.
///
/// It reads one level of elements at a time and never allocates per element: a `Node` is an identifier octet and a
/// range of the buffer. It accepts what X.690 BER allows receipts to use: definite lengths in short and long form
/// (at most four length octets), indefinite lengths (`0x80` … end-of-contents `00 00`) on constructed elements, and
/// constructed OCTET STRINGs (`withOctetString(_:_:)` joins their segments). High-tag-number identifiers are read
/// safely and reported with their first octet (low bits `0x1F`), which matches no tag a receipt uses.
///
/// Every length is checked against the bytes that remain before it is used (a length past the end of the input is
/// `truncated`, past the end of its container `malformed`), so hostile lengths can neither trap nor read out of
/// bounds. Nesting is bounded by `maxDepth`, both when descending with `children(of:)` and when scanning for the end
/// of an indefinite-length element, which is done with a loop and a level counter rather than recursion.
struct BERReader {
    /// One element: its identifier octet, where its contents lie in the reader's buffer (for an indefinite-length
    /// element, up to but excluding its end-of-contents octets) and where the whole element, header included, lies.
    struct Node {
        var tag: UInt8
        var contents: Range<Int>
        /// The whole element: identifier, length, contents (and end-of-contents octets when indefinite).
        var element: Range<Int>

        var isConstructed: Bool { tag & 0x20 != 0 }
    }

    /// How deep elements may nest, counting from the outermost.
    static let maxDepth = 32

    /// The whole buffer; `Node.contents` are offsets into it.
    let bytes: UnsafeRawBufferPointer
    /// Where the next element starts.
    private(set) var position: Int
    /// Where this level ends.
    let limit: Int
    /// How many containers enclose this level.
    let depth: Int

    /// A reader of the top-level elements of `bytes`, which is itself nested `depth` levels deep.
    init(_ bytes: UnsafeRawBufferPointer, depth: Int = 0) {
        self.bytes = bytes
        self.position = 0
        self.limit = bytes.count
        self.depth = depth
    }

    private init(bytes: UnsafeRawBufferPointer, range: Range<Int>, depth: Int) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.limit = range.upperBound
        self.depth = depth
    }

    /// Whether every element of this level has been read.
    var isAtEnd: Bool { position >= limit }

    /// The next element of this level, or `nil` at its end.
    mutating func next() throws(ReceiptError) -> Node? {
        guard position < limit else { return nil }
        let header = try readHeader(at: position, limit: limit)
        if header.tag == 0 {
            throw ReceiptError(.malformed, "unexpected end-of-contents at byte \(position)")
        }
        let start = position
        if header.length < 0 {
            let end = try endOfContents(from: header.contentStart, limit: limit, depth: depth + 1)
            position = end + 2
            return Node(tag: header.tag, contents: header.contentStart..<end, element: start..<position)
        }
        position = header.contentStart + header.length
        return Node(tag: header.tag, contents: header.contentStart..<position, element: start..<position)
    }

    /// The next element, which must exist and carry `tag`; `what` names it in the error.
    mutating func next(_ tag: UInt8, _ what: String) throws(ReceiptError) -> Node {
        guard let node = try next() else { throw ReceiptError(.malformed, "missing \(what)") }
        guard node.tag == tag else {
            throw ReceiptError(.malformed, "expected \(what) at byte \(node.contents.lowerBound)")
        }
        return node
    }

    /// A reader of the elements inside the constructed `node`.
    func children(of node: Node) throws(ReceiptError) -> BERReader {
        guard node.isConstructed else {
            throw ReceiptError(.malformed, "primitive element where a constructed one was expected")
        }
        guard depth < Self.maxDepth else {
            throw ReceiptError(.tooDeep, "elements nest deeper than \(Self.maxDepth) levels")
        }
        return BERReader(bytes: bytes, range: node.contents, depth: depth + 1)
    }

    /// The contents octets of `node`, as they are in the buffer.
    func contents(of node: Node) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[node.contents])
    }

    /// The whole of `node`, identifier and length octets included, as it is in the buffer.
    func encoding(of node: Node) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[node.element])
    }

    /// Calls `body` with the value of the OCTET STRING `node`: its contents when primitive (`0x04`), its segments
    /// joined into a new buffer when constructed (`0x24`, BER).
    func withOctetString<R>(
        _ node: Node,
        _ body: (UnsafeRawBufferPointer) throws(ReceiptError) -> R
    ) throws(ReceiptError) -> R {
        switch node.tag {
        case 0x04:
            return try body(contents(of: node))
        case 0x24:
            var joined: [UInt8] = []
            try appendSegments(of: node, to: &joined)
            return try joined.withUnsafeBufferPointer { (buffer) throws(ReceiptError) -> R in
                try body(UnsafeRawBufferPointer(buffer))
            }
        default:
            throw ReceiptError(.malformed, "expected an OCTET STRING at byte \(node.contents.lowerBound)")
        }
    }

    /// Appends the segments of a constructed OCTET STRING; recursion is bounded by `children(of:)`.
    private func appendSegments(of node: Node, to joined: inout [UInt8]) throws(ReceiptError) {
        var segments = try children(of: node)
        while let segment = try segments.next() {
            switch segment.tag {
            case 0x04: joined.append(contentsOf: segments.contents(of: segment))
            case 0x24: try segments.appendSegments(of: segment, to: &joined)
            default: throw ReceiptError(.malformed, "a constructed OCTET STRING holds something else")
            }
        }
    }

    /// The value of INTEGER contents, which must fit an `Int64`.
    static func integer(_ contents: UnsafeRawBufferPointer) throws(ReceiptError) -> Int64 {
        guard !contents.isEmpty, contents.count <= 8 else {
            throw ReceiptError(.malformed, contents.isEmpty ? "empty INTEGER" : "INTEGER out of range")
        }
        var value = Int64(Int8(bitPattern: contents[0]))
        for index in 1..<contents.count { value = value << 8 | Int64(contents[index]) }
        return value
    }

    // MARK: - Headers

    /// The error for an element that claims more bytes than `limit` leaves.
    private func overrun(_ limit: Int) -> ReceiptError {
        limit >= bytes.count
            ? ReceiptError(.truncated, "the input ends inside an element")
            : ReceiptError(.malformed, "an element runs past the end of its container")
    }

    /// The identifier octet, where the contents start and their length (`-1` when indefinite) of the element at
    /// `start`, which must fit before `limit`.
    @inline(__always)
    private func readHeader(
        at start: Int,
        limit: Int
    ) throws(ReceiptError) -> (tag: UInt8, contentStart: Int, length: Int) {
        var index = start
        guard index < limit else { throw overrun(limit) }
        let tag = bytes[index]
        index += 1
        if tag & 0x1F == 0x1F {
            // High-tag-number form: base-128 continuation octets. Receipts use none; skip at most four.
            var count = 0
            while true {
                guard index < limit else { throw overrun(limit) }
                let octet = bytes[index]
                index += 1
                count += 1
                if octet & 0x80 == 0 { break }
                guard count < 4 else { throw ReceiptError(.malformed, "tag number too large at byte \(start)") }
            }
        }
        guard index < limit else { throw overrun(limit) }
        let first = bytes[index]
        index += 1
        let length: Int
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            guard tag & 0x20 != 0 else {
                throw ReceiptError(.malformed, "indefinite length on a primitive element at byte \(start)")
            }
            return (tag, index, -1)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw ReceiptError(.malformed, "length of more than four octets at byte \(start)") }
            guard count <= limit - index else { throw overrun(limit) }
            var value = 0
            for offset in 0..<count { value = value << 8 | Int(bytes[index + offset]) }
            index += count
            length = value
        }
        guard length <= limit - index else { throw overrun(limit) }
        return (tag, index, length)
    }

    /// The offset of the end-of-contents octets closing the indefinite-length element whose contents start at
    /// `start` and which is nested `depth` levels deep. Definite-length elements inside are skipped by their length;
    /// nested indefinite ones are counted, never recursed into.
    private func endOfContents(from start: Int, limit: Int, depth: Int) throws(ReceiptError) -> Int {
        var index = start
        var open = 0
        while true {
            let header = try readHeader(at: index, limit: limit)
            if header.tag == 0 {
                guard header.length == 0 else { throw ReceiptError(.malformed, "bad end-of-contents at byte \(index)") }
                if open == 0 { return index }
                open -= 1
                index = header.contentStart
            } else if header.length < 0 {
                open += 1
                guard depth + open <= Self.maxDepth else {
                    throw ReceiptError(.tooDeep, "elements nest deeper than \(Self.maxDepth) levels")
                }
                index = header.contentStart
            } else {
                index = header.contentStart + header.length
            }
        }
    }
}
