import NIOCore
import PostgresNIO

/// A one-dimensional PostgreSQL array (`text[]` or `bigint[]`) whose elements may be NULL, in the binary format.
/// postgres-nio encodes arrays without NULL elements only, and the columns of a settlement batch have many.
struct PostgresNullableArray<Element: PostgresNullableArrayElement>: PostgresNonThrowingEncodable,
    PostgresDynamicTypeEncodable
{
    var elements: [Element?]

    init(_ elements: [Element?] = []) {
        self.elements = elements
    }

    mutating func append(_ element: Element?) {
        elements.append(element)
    }

    static var psqlType: PostgresDataType { Element.arrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) {
        // Dimensions, whether any element is NULL, the element type; then the length and lower bound of the one
        // dimension, and each element as its length (-1 for NULL) and its bytes.
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.elementType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            let start = buffer.writerIndex
            element.write(into: &buffer)
            buffer.setInteger(Int32(buffer.writerIndex - start), at: lengthIndex)
        }
    }
}

/// An element type of `PostgresNullableArray`: its PostgreSQL type, its array type and its binary form.
protocol PostgresNullableArrayElement: Sendable, Equatable {
    static var elementType: PostgresDataType { get }
    static var arrayType: PostgresDataType { get }
    func write(into buffer: inout ByteBuffer)
}

extension String: PostgresNullableArrayElement {
    static var elementType: PostgresDataType { .text }
    static var arrayType: PostgresDataType { .textArray }
    func write(into buffer: inout ByteBuffer) { buffer.writeString(self) }
}

extension Int64: PostgresNullableArrayElement {
    static var elementType: PostgresDataType { .int8 }
    static var arrayType: PostgresDataType { .int8Array }
    func write(into buffer: inout ByteBuffer) { buffer.writeInteger(self) }
}
