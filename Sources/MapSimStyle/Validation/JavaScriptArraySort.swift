/// `Array.prototype.sort` as V8 (node) runs it — TimSort, after Tim Peters's list sort — with a
/// comparator that returns a number, NaN included. gl-style-validate sorts its errors with
/// `(a, b) => a.line - b.line`, and an error with no line makes that NaN, which every comparison
/// takes as "not less": the order is then not a sort by line, and only the same algorithm, making
/// the same comparisons in the same sequence, gives the reference's order. Checked against node on
/// 220 recorded arrays (`Tests/…/Fixtures/javascript-sort.json`), 60 of them long enough to merge.
enum JavaScriptArraySort {
    /// Sorts `array` in place as V8 would with `compare`.
    static func sort<Element>(_ array: inout [Element], by compare: (Element, Element) -> Double) {
        guard array.count >= 2 else { return }
        array = withoutActuallyEscaping(compare) { compare in
            var state = State(work: array, compare: compare)
            state.run()
            return state.work
        }
    }

    /// How a merge ends: every element placed, or the rest of one run to copy after the last of the other.
    private enum MergeEnding {
        case succeed, copyRest
    }

    private struct Run {
        var base: Int
        var length: Int
    }

    private struct State<Element> {
        var work: [Element]
        let compare: (Element, Element) -> Double
        var runs: [Run] = []
        var minimumGallop = 7
        static var minimumGallopWins: Int { 7 }

        init(work: [Element], compare: @escaping (Element, Element) -> Double) {
            self.work = work
            self.compare = compare
        }

        mutating func run() {
            var remaining = work.count
            var low = 0
            let minimumRun = Self.minimumRunLength(remaining)
            while remaining != 0 {
                var length = countAndMakeRun(low, low + remaining)
                if length < minimumRun {
                    let forced = min(minimumRun, remaining)
                    binaryInsertionSort(low, low + length, low + forced)
                    length = forced
                }
                runs.append(Run(base: low, length: length))
                mergeCollapse()
                low += length
                remaining -= length
            }
            while runs.count > 1 {
                var n = runs.count - 2
                if n > 0 && runs[n - 1].length < runs[n + 1].length { n -= 1 }
                mergeAt(n)
            }
        }

        static func minimumRunLength(_ count: Int) -> Int {
            var n = count
            var r = 0
            while n >= 64 {
                r |= n & 1
                n >>= 1
            }
            return n + r
        }

        mutating func countAndMakeRun(_ lowArgument: Int, _ high: Int) -> Int {
            let low = lowArgument + 1
            if low == high { return 1 }
            var length = 2
            let isDescending = compare(work[low], work[low - 1]) < 0
            var previous = work[low]
            var index = low + 1
            while index < high {
                let current = work[index]
                let order = compare(current, previous)
                if isDescending {
                    if !(order < 0) { break }
                } else if order < 0 {
                    break
                }
                previous = current
                length += 1
                index += 1
            }
            if isDescending { work[lowArgument..<(lowArgument + length)].reverse() }
            return length
        }

        mutating func binaryInsertionSort(_ low: Int, _ startArgument: Int, _ high: Int) {
            var start = low == startArgument ? startArgument + 1 : startArgument
            while start < high {
                var left = low
                var right = start
                let pivot = work[start]
                while left < right {
                    let middle = left + ((right - left) >> 1)
                    if compare(pivot, work[middle]) < 0 { right = middle } else { left = middle + 1 }
                }
                var p = start
                while p > left {
                    work[p] = work[p - 1]
                    p -= 1
                }
                work[left] = pivot
                start += 1
            }
        }

        private func invariantHolds(_ n: Int) -> Bool {
            n < 2 || runs[n - 2].length > runs[n - 1].length + runs[n].length
        }

        mutating func mergeCollapse() {
            while runs.count > 1 {
                var n = runs.count - 2
                if !invariantHolds(n + 1) || !invariantHolds(n) {
                    if n > 0 && runs[n - 1].length < runs[n + 1].length { n -= 1 }
                    mergeAt(n)
                } else if runs[n].length <= runs[n + 1].length {
                    mergeAt(n)
                } else {
                    break
                }
            }
        }

        mutating func mergeAt(_ i: Int) {
            var baseA = runs[i].base
            var lengthA = runs[i].length
            let baseB = runs[i + 1].base
            var lengthB = runs[i + 1].length
            runs[i].length = lengthA + lengthB
            runs.remove(at: i + 1)
            let k = gallopRight(in: work, key: work[baseB], base: baseA, length: lengthA, hint: 0)
            baseA += k
            lengthA -= k
            if lengthA == 0 { return }
            lengthB = gallopLeft(in: work, key: work[baseA + lengthA - 1], base: baseB, length: lengthB, hint: lengthB - 1)
            if lengthB == 0 { return }
            if lengthA <= lengthB {
                mergeLow(baseA, lengthA, baseB, lengthB)
            } else {
                mergeHigh(baseA, lengthA, baseB, lengthB)
            }
        }

        /// Where `key` goes in the sorted `array[base..<base + length]`, after any equal elements.
        func gallopRight(in array: [Element], key: Element, base: Int, length: Int, hint: Int) -> Int {
            var lastOffset = 0
            var offset = 1
            if compare(key, array[base + hint]) < 0 {
                let maximum = hint + 1
                while offset < maximum {
                    if !(compare(key, array[base + hint - offset]) < 0) { break }
                    lastOffset = offset
                    offset = (offset << 1) + 1
                }
                offset = min(offset, maximum)
                let previous = lastOffset
                lastOffset = hint - offset
                offset = hint - previous
            } else {
                let maximum = length - hint
                while offset < maximum {
                    if compare(key, array[base + hint + offset]) < 0 { break }
                    lastOffset = offset
                    offset = (offset << 1) + 1
                }
                offset = min(offset, maximum)
                lastOffset += hint
                offset += hint
            }
            lastOffset += 1
            while lastOffset < offset {
                let middle = lastOffset + ((offset - lastOffset) >> 1)
                if compare(key, array[base + middle]) < 0 { offset = middle } else { lastOffset = middle + 1 }
            }
            return offset
        }

        /// Where `key` goes in the sorted `array[base..<base + length]`, before any equal elements.
        func gallopLeft(in array: [Element], key: Element, base: Int, length: Int, hint: Int) -> Int {
            var lastOffset = 0
            var offset = 1
            if compare(array[base + hint], key) < 0 {
                let maximum = length - hint
                while offset < maximum {
                    if !(compare(array[base + hint + offset], key) < 0) { break }
                    lastOffset = offset
                    offset = (offset << 1) + 1
                }
                offset = min(offset, maximum)
                lastOffset += hint
                offset += hint
            } else {
                let maximum = hint + 1
                while offset < maximum {
                    if compare(array[base + hint - offset], key) < 0 { break }
                    lastOffset = offset
                    offset = (offset << 1) + 1
                }
                offset = min(offset, maximum)
                let previous = lastOffset
                lastOffset = hint - offset
                offset = hint - previous
            }
            lastOffset += 1
            while lastOffset < offset {
                let middle = lastOffset + ((offset - lastOffset) >> 1)
                if compare(array[base + middle], key) < 0 { lastOffset = middle + 1 } else { offset = middle }
            }
            return offset
        }

        mutating func mergeLow(_ baseA: Int, _ lengthAArgument: Int, _ baseB: Int, _ lengthBArgument: Int) {
            var lengthA = lengthAArgument
            var lengthB = lengthBArgument
            let temporary = Array(work[baseA..<(baseA + lengthA)])
            var destination = baseA
            var cursorTemporary = 0
            var cursorB = baseB
            work[destination] = work[cursorB]
            destination += 1
            cursorB += 1
            let ending: MergeEnding = {
                lengthB -= 1
                if lengthB == 0 { return .succeed }
                if lengthA == 1 { return .copyRest }
                var gallop = minimumGallop
                while true {
                    var winsA = 0
                    var winsB = 0
                    while true {
                        if compare(work[cursorB], temporary[cursorTemporary]) < 0 {
                            work[destination] = work[cursorB]
                            destination += 1
                            cursorB += 1
                            winsB += 1
                            lengthB -= 1
                            winsA = 0
                            if lengthB == 0 { return .succeed }
                            if winsB >= gallop { break }
                        } else {
                            work[destination] = temporary[cursorTemporary]
                            destination += 1
                            cursorTemporary += 1
                            winsA += 1
                            lengthA -= 1
                            winsB = 0
                            if lengthA == 1 { return .copyRest }
                            if winsA >= gallop { break }
                        }
                    }
                    gallop += 1
                    var first = true
                    while winsA >= Self.minimumGallopWins || winsB >= Self.minimumGallopWins || first {
                        first = false
                        gallop = max(1, gallop - 1)
                        minimumGallop = gallop
                        winsA = gallopRight(in: temporary, key: work[cursorB], base: cursorTemporary, length: lengthA, hint: 0)
                        if winsA > 0 {
                            for offset in 0..<winsA { work[destination + offset] = temporary[cursorTemporary + offset] }
                            destination += winsA
                            cursorTemporary += winsA
                            lengthA -= winsA
                            if lengthA == 1 { return .copyRest }
                            if lengthA == 0 { return .succeed }
                        }
                        work[destination] = work[cursorB]
                        destination += 1
                        cursorB += 1
                        lengthB -= 1
                        if lengthB == 0 { return .succeed }
                        winsB = gallopLeft(in: work, key: temporary[cursorTemporary], base: cursorB, length: lengthB, hint: 0)
                        if winsB > 0 {
                            for offset in 0..<winsB { work[destination + offset] = work[cursorB + offset] }
                            destination += winsB
                            cursorB += winsB
                            lengthB -= winsB
                            if lengthB == 0 { return .succeed }
                        }
                        work[destination] = temporary[cursorTemporary]
                        destination += 1
                        cursorTemporary += 1
                        lengthA -= 1
                        if lengthA == 1 { return .copyRest }
                    }
                    gallop += 1
                    minimumGallop = gallop
                }
            }()
            switch ending {
            case .succeed:
                for offset in 0..<max(lengthA, 0) { work[destination + offset] = temporary[cursorTemporary + offset] }
            case .copyRest:
                for offset in 0..<lengthB { work[destination + offset] = work[cursorB + offset] }
                work[destination + lengthB] = temporary[cursorTemporary]
            }
        }

        mutating func mergeHigh(_ baseA: Int, _ lengthAArgument: Int, _ baseB: Int, _ lengthBArgument: Int) {
            var lengthA = lengthAArgument
            var lengthB = lengthBArgument
            let temporary = Array(work[baseB..<(baseB + lengthB)])
            var destination = baseB + lengthB - 1
            var cursorTemporary = lengthB - 1
            var cursorA = baseA + lengthA - 1
            work[destination] = work[cursorA]
            destination -= 1
            cursorA -= 1
            let ending: MergeEnding = {
                lengthA -= 1
                if lengthA == 0 { return .succeed }
                if lengthB == 1 { return .copyRest }
                var gallop = minimumGallop
                while true {
                    var winsA = 0
                    var winsB = 0
                    while true {
                        if compare(temporary[cursorTemporary], work[cursorA]) < 0 {
                            work[destination] = work[cursorA]
                            destination -= 1
                            cursorA -= 1
                            winsA += 1
                            lengthA -= 1
                            winsB = 0
                            if lengthA == 0 { return .succeed }
                            if winsA >= gallop { break }
                        } else {
                            work[destination] = temporary[cursorTemporary]
                            destination -= 1
                            cursorTemporary -= 1
                            winsB += 1
                            lengthB -= 1
                            winsA = 0
                            if lengthB == 1 { return .copyRest }
                            if winsB >= gallop { break }
                        }
                    }
                    gallop += 1
                    var first = true
                    while winsA >= Self.minimumGallopWins || winsB >= Self.minimumGallopWins || first {
                        first = false
                        gallop = max(1, gallop - 1)
                        minimumGallop = gallop
                        var k = gallopRight(in: work, key: temporary[cursorTemporary], base: baseA, length: lengthA, hint: lengthA - 1)
                        winsA = lengthA - k
                        if winsA > 0 {
                            destination -= winsA
                            cursorA -= winsA
                            for offset in stride(from: winsA - 1, through: 0, by: -1) { work[destination + 1 + offset] = work[cursorA + 1 + offset] }
                            lengthA -= winsA
                            if lengthA == 0 { return .succeed }
                        }
                        work[destination] = temporary[cursorTemporary]
                        destination -= 1
                        cursorTemporary -= 1
                        lengthB -= 1
                        if lengthB == 1 { return .copyRest }
                        k = gallopLeft(in: temporary, key: work[cursorA], base: 0, length: lengthB, hint: lengthB - 1)
                        winsB = lengthB - k
                        if winsB > 0 {
                            destination -= winsB
                            cursorTemporary -= winsB
                            for offset in 0..<winsB { work[destination + 1 + offset] = temporary[cursorTemporary + 1 + offset] }
                            lengthB -= winsB
                            if lengthB == 1 { return .copyRest }
                            if lengthB == 0 { return .succeed }
                        }
                        work[destination] = work[cursorA]
                        destination -= 1
                        cursorA -= 1
                        lengthA -= 1
                        if lengthA == 0 { return .succeed }
                    }
                    gallop += 1
                    minimumGallop = gallop
                }
            }()
            switch ending {
            case .succeed:
                for offset in 0..<max(lengthB, 0) { work[destination - (lengthB - 1) + offset] = temporary[offset] }
            case .copyRest:
                destination -= lengthA
                cursorA -= lengthA
                for offset in stride(from: lengthA - 1, through: 0, by: -1) { work[destination + 1 + offset] = work[cursorA + 1 + offset] }
                work[destination] = temporary[cursorTemporary]
            }
        }
    }
}
