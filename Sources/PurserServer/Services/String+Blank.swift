extension String {
    /// Whether every Unicode scalar is White_Space (so the empty string too). Counted by scalars, as the JSON Schema in
    /// `openapi.yaml` counts: its `pattern` for "not blank" lists exactly Unicode's White_Space characters.
    var isBlank: Bool { unicodeScalars.allSatisfy(\.properties.isWhitespace) }

    /// The length as JSON Schema's `minLength` / `maxLength` count it: Unicode scalars.
    var schemaLength: Int { unicodeScalars.count }
}
