/// A stream's values: integers with their logical encodings undone, vertices, bitmaps and floats.
extension MLTStream {
    /// The values as unsigned 32-bit integers.
    func unsigned32(_ budget: inout MLTBudget) throws(MLTFault) -> [UInt32] {
        try integers(wide: false, signed: false, &budget).map { UInt32(truncatingIfNeeded: $0) }
    }

    /// The values as signed 32-bit integers (zigzag-decoded).
    func signed32(_ budget: inout MLTBudget) throws(MLTFault) -> [Int32] {
        try integers(wide: false, signed: true, &budget).map { Int32(truncatingIfNeeded: $0) }
    }

    /// The values as unsigned 64-bit integers.
    func unsigned64(_ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        try integers(wide: true, signed: false, &budget)
    }

    /// The values as signed 64-bit integers (zigzag-decoded).
    func signed64(_ budget: inout MLTBudget) throws(MLTFault) -> [Int64] {
        try integers(wide: true, signed: true, &budget).map { Int64(bitPattern: $0) }
    }

    /// A vertex buffer as interleaved x, y coordinates: componentwise deltas (or whatever integer
    /// encoding the stream has) undone, or Morton codes decoded.
    func vertices(_ budget: inout MLTBudget) throws(MLTFault) -> [Int32] {
        guard case .morton(let bits, let shift, let delta) = logical else {
            let coordinates = try signed32(&budget)
            guard coordinates.count % 2 == 0 else { throw fault("has \(coordinates.count) coordinates, an odd number") }
            return coordinates
        }
        var codes = try physicalValues(wide: false, &budget)
        if delta { Self.accumulate(&codes) }
        try budget.spend(2 * codes.count, on: label)
        var coordinates: [Int32] = []
        coordinates.reserveCapacity(2 * codes.count)
        for code in codes {
            coordinates.append(Int32(bitPattern: Self.deinterleave(code, bits: bits) &- shift))
            coordinates.append(Int32(bitPattern: Self.deinterleave(code >> 1, bits: bits) &- shift))
        }
        return coordinates
    }

    /// The bits of a present stream or of a boolean column, least significant bit of each byte
    /// first: a plain bitmap, or one in ORC's byte run-length encoding.
    func bits(_ budget: inout MLTBudget) throws(MLTFault) -> [Bool] {
        let byteCount = (count + 7) / 8
        try budget.spend(count, on: label)
        let packed: [UInt8]
        switch (logical, physical) {
        case (.none, .none):
            guard payload.count == byteCount else { throw fault("claims \(count) bits in \(payload.count) bytes") }
            packed = Array(bytes[payload])
        case (.runLength, .none):
            packed = try byteRunLengthDecoded(byteCount)
        default:
            throw fault("is a bitmap encoded neither plain nor byte-RLE")
        }
        return (0..<count).map { packed[$0 >> 3] >> UInt8($0 & 7) & 1 == 1 }
    }

    /// The values of a float column, widened as a `Float32Array` element is read in JavaScript.
    func floats(_ budget: inout MLTBudget) throws(MLTFault) -> [Double] {
        try plainFloatingPoint(width: 4, &budget).map { Double(Float(bitPattern: UInt32(truncatingIfNeeded: $0))) }
    }

    /// The values of a double column.
    func doubles(_ budget: inout MLTBudget) throws(MLTFault) -> [Double] {
        try plainFloatingPoint(width: 8, &budget).map { Double(bitPattern: $0) }
    }

    private func plainFloatingPoint(width: Int, _ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        guard logical == .none, physical == .none else { throw fault("holds floating-point values, which are stored plain; it is encoded otherwise") }
        return try littleEndian(width: width, &budget)
    }

    /// Integers as 64-bit patterns (a 32-bit stream's truncated to 32 bits when it is read).
    private func integers(wide: Bool, signed: Bool, _ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        var values = try physicalValues(wide: wide, &budget)
        switch logical {
        case .none:
            if signed { Self.unzigzag(&values) }
        case .delta:
            Self.unzigzag(&values)
            Self.accumulate(&values)
        case .componentwiseDelta:
            guard values.count % 2 == 0 else { throw fault("has \(values.count) componentwise deltas, an odd number") }
            Self.unzigzag(&values)
            var x: UInt64 = 0
            var y: UInt64 = 0
            for index in stride(from: 0, to: values.count, by: 2) {
                x &+= values[index]
                y &+= values[index + 1]
                values[index] = x
                values[index + 1] = y
            }
        case .runLength(let runs, let count):
            values = try expanded(values, runs: runs, count: count, &budget)
            if signed { Self.unzigzag(&values) }
        case .deltaRunLength(let runs, let count):
            values = try expanded(values, runs: runs, count: count, &budget)
            Self.unzigzag(&values)
            Self.accumulate(&values)
        case .morton:
            throw fault("has Morton codes, which only a vertex buffer may have")
        }
        return values
    }

    /// The values as the physical encoding gives them: varints, FastPFOR words, or little-endian
    /// words of 4 or 8 bytes.
    private func physicalValues(wide: Bool, _ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        switch physical {
        case .varint:
            guard count <= payload.count else { throw fault("claims \(count) varints in \(payload.count) bytes") }
            try budget.spend(count, on: label)
            var reader = MLTReader(bytes, range: payload)
            var values: [UInt64] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                let value = try reader.varint("a value of \(label)")
                values.append(wide ? value : value & 0xFFFF_FFFF)
            }
            guard reader.isAtEnd else { throw fault("has \(reader.remaining) bytes after its \(count) values") }
            return values
        case .none:
            return try littleEndian(width: wide ? 8 : 4, &budget)
        case .fastPFOR:
            guard !wide else { throw fault("is FastPFOR-encoded, which holds 32-bit values only, in a 64-bit column") }
            try budget.spend(count, on: label)
            do {
                return try FastPFORDecoder.decode(bytes[payload], count: count).map(UInt64.init)
            } catch {
                throw fault(error.message)
            }
        }
    }

    private func littleEndian(width: Int, _ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        guard payload.count == count * width else { throw fault("claims \(count) values of \(width) bytes in \(payload.count) bytes") }
        try budget.spend(count, on: label)
        return (0..<count).map { index in
            let start = payload.lowerBound + index * width
            var value: UInt64 = 0
            for byte in 0..<width { value |= UInt64(bytes[start + byte]) << UInt64(8 * byte) }
            return value
        }
    }

    /// Run lengths then values, expanded: the runs must add up to `count`.
    private func expanded(_ values: [UInt64], runs: Int, count: Int, _ budget: inout MLTBudget) throws(MLTFault) -> [UInt64] {
        guard values.count == 2 * runs else { throw fault("has \(values.count) values for \(runs) runs; RLE has a length and a value per run") }
        try budget.spend(count, on: label)
        var result: [UInt64] = []
        result.reserveCapacity(count)
        for run in 0..<runs {
            guard values[run] <= UInt64(count - result.count) else { throw fault("has runs of more than the \(count) values it declares") }
            result.append(contentsOf: repeatElement(values[runs + run], count: Int(values[run])))
        }
        guard result.count == count else { throw fault("has runs of \(result.count) values, not the \(count) it declares") }
        return result
    }

    /// ORC's byte run-length encoding: a control byte below 128 repeats the next byte control + 3
    /// times; one of 128 or more is followed by 256 - control literal bytes.
    private func byteRunLengthDecoded(_ byteCount: Int) throws(MLTFault) -> [UInt8] {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(byteCount)
        var position = payload.lowerBound
        while decoded.count < byteCount {
            guard position + 1 < payload.upperBound else { throw fault("ends after \(decoded.count) of its \(byteCount) bytes") }
            let control = Int(bytes[position])
            if control < 128 {
                decoded.append(contentsOf: repeatElement(bytes[position + 1], count: min(control + 3, byteCount - decoded.count)))
                position += 2
            } else {
                let literals = min(256 - control, byteCount - decoded.count)
                guard position + 1 + literals <= payload.upperBound else { throw fault("ends inside a run of literal bytes") }
                decoded.append(contentsOf: bytes[(position + 1)..<(position + 1 + literals)])
                position += 1 + literals
            }
        }
        return decoded
    }

    private static func unzigzag(_ values: inout [UInt64]) {
        for index in values.indices { values[index] = (values[index] >> 1) ^ (0 &- (values[index] & 1)) }
    }

    /// Prefix sums, wrapping: a 32-bit stream's sums are right once truncated to 32 bits.
    private static func accumulate(_ values: inout [UInt64]) {
        var sum: UInt64 = 0
        for index in values.indices {
            sum &+= values[index]
            values[index] = sum
        }
    }

    /// Every other bit of `code` from bit 0, `bits` of them.
    private static func deinterleave(_ code: UInt64, bits: Int) -> UInt32 {
        var coordinate: UInt32 = 0
        for bit in 0..<bits { coordinate |= UInt32(truncatingIfNeeded: (code >> UInt64(2 * bit)) & 1) << UInt32(bit) }
        return coordinate
    }
}
