#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Reading and writing files and the standard streams, with the C library alone.
enum Files {
  /// The contents of the file at `path`, or nil when it can't be read.
  static func read(_ path: String) -> String? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      bytes += buffer[0..<count]
      if count < buffer.count { break }
    }
    return ferror(file) == 0 ? String(decoding: bytes, as: UTF8.self) : nil
  }

  /// Writes `text` to the file at `path`, replacing it; false when that failed.
  static func write(_ text: String, toFile path: String) -> Bool {
    guard let file = fopen(path, "wb") else { return false }
    let bytes = Array(text.utf8)
    let written = fwrite(bytes, 1, bytes.count, file)
    return fclose(file) == 0 && written == bytes.count
  }

  /// Writes `text` to the file descriptor `descriptor` (1 standard output, 2 standard error).
  static func write(_ text: String, to descriptor: Int32) {
    var bytes = Array(text.utf8)[...]
    while !bytes.isEmpty {
      let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0) }
      guard written > 0 else { return }
      bytes = bytes.dropFirst(written)
    }
  }

  /// Ends the process with `status`.
  static func exit(_ status: Int32) -> Never {
    #if canImport(Darwin)
      Darwin.exit(status)
    #elseif canImport(Glibc)
      Glibc.exit(status)
    #else
      Musl.exit(status)
    #endif
  }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
  guard let base = buffer.baseAddress else { return 0 }
  #if canImport(Darwin)
    return Darwin.write(descriptor, base, buffer.count)
  #elseif canImport(Glibc)
    return Glibc.write(descriptor, base, buffer.count)
  #else
    return Musl.write(descriptor, base, buffer.count)
  #endif
}
