public import TinyDependency

#if canImport(MachO)
  import MachO
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

extension DependencyCheck {
  /// Every `DependencyKey` type in the process, found in the binaries' protocol conformance
  /// records, or nil where this platform's records can't be read.
  ///
  /// Generic key types have no single type to return and are skipped:
  /// ``skippedGenericKeys()`` names them. Keys are sorted by name.
  ///
  /// A conformance record doesn't say when its type became available: before macOS 13 / iOS 16
  /// the built-in clock keys are left out, but a key of yours marked `@available` for a newer
  /// system than the one running is returned; filter it out before validating. Discovery is
  /// unsupported (nil) in arm64e processes, where the records' pointers are signed.
  ///
  /// - Returns: The key types, or nil where discovery is unsupported.
  public static func discoveredKeys() -> [any DependencyKey.Type]? {
    KeyDiscovery.run().map { $0.keys.map(\.type) }
  }

  /// Every `MainActorDependencyKey` type in the process, by its own name, found like
  /// ``discoveredKeys()``; validate them with ``validate(_:mainActorKeys:previews:configure:)``.
  ///
  /// Generic ones are skipped, and ``skippedGenericKeys()`` names them.
  ///
  /// - Returns: The key types, sorted by name, or nil where discovery is unsupported.
  public static func discoveredMainActorKeys() -> [any MainActorDependencyKey.Type]? {
    KeyDiscovery.run().map { $0.mainActorKeys.map(\.type) }
  }

  /// The names of the generic `DependencyKey` and `MainActorDependencyKey` types that
  /// ``discoveredKeys()`` and ``discoveredMainActorKeys()`` skipped.
  ///
  /// - Returns: Their names, sorted, or nil where discovery is unsupported.
  public static func skippedGenericKeys() -> [String]? {
    KeyDiscovery.run()?.skippedGeneric
  }
}

/// Reads protocol conformance records: the `swift5_protocol_conformances` section on ELF
/// (through `swift_enumerateAllMetadataSections`) and `__TEXT,__swift5_proto` in Mach-O
/// images (unverified: this project builds on Linux only).
///
/// On arm64e the indirect pointers to protocol and type descriptors are signed (the runtime's
/// `TargetSignedContextPointer`), and so would be a call through the accessor's address: this
/// reading doesn't authenticate or strip them, so it reports discovery as unsupported there.
/// Apps and their test bundles build for arm64, where nothing here is signed.
enum KeyDiscovery {
  /// A discovered key type. `@unchecked Sendable`: a metatype is an immutable identity.
  struct Found: @unchecked Sendable {
    let type: any DependencyKey.Type
    let name: String
  }

  /// A discovered main-actor key type. `@unchecked Sendable` like ``Found``.
  struct FoundMainActor: @unchecked Sendable {
    let type: any MainActorDependencyKey.Type
    let name: String
  }

  struct Result: Sendable {
    var keys: [Found] = []
    var mainActorKeys: [FoundMainActor] = []
    var skippedGeneric: [String] = []
  }

  /// Whether the system has `Clock` and `Duration`, which the built-in clock keys' values use.
  static var systemHasClocks: Bool {
    if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) { return true }
    return false
  }

  /// The built-in keys that need `systemHasClocks`, by type name, in TinyDependencyBuiltins.
  static let clockKeys: Set<String> = ["ContinuousClockKey", "SuspendingClockKey"]

  static func run(systemHasClocks: Bool = KeyDiscovery.systemHasClocks) -> Result? {
    var result = Result()
    guard
      forEachConformanceRecordSection({ start, count in
        scan(start, count, systemHasClocks: systemHasClocks, into: &result)
      })
    else { return nil }
    result.keys.sort { $0.name < $1.name }
    result.mainActorKeys.sort { $0.name < $1.name }
    result.skippedGeneric.sort()
    return result
  }

  /// Calls `body` with each image's conformance records (an array of 32-bit relative offsets).
  private static func forEachConformanceRecordSection(
    _ body: (UnsafeRawPointer, Int) -> Void
  ) -> Bool {
    #if _ptrauth(_arm64e)
      return false
    #elseif canImport(MachO)
      for index in 0..<_dyld_image_count() {
        guard let header = _dyld_get_image_header(index) else { continue }
        var size: UInt = 0
        #if arch(arm64_32) || arch(arm) || arch(i386)
          // Without `__LP64__` (watchOS on arm64_32 and armv7k), `getsectiondata` takes the
          // 32-bit `mach_header` that `_dyld_get_image_header` returns.
          let section = getsectiondata(header, "__TEXT", "__swift5_proto", &size)
        #else
          let section = header.withMemoryRebound(to: mach_header_64.self, capacity: 1) {
            getsectiondata($0, "__TEXT", "__swift5_proto", &size)
          }
        #endif
        if let section { body(UnsafeRawPointer(section), Int(size) / 4) }
      }
      return true
    #elseif os(Linux) || os(FreeBSD) || os(Android)
      typealias Callback = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Bool
      typealias Enumerate = @convention(c) (Callback, UnsafeMutableRawPointer?) -> Void
      guard let symbol = dlsym(nil, "swift_enumerateAllMetadataSections") else { return false }
      let enumerate = unsafeBitCast(symbol, to: Enumerate.self)
      var sections: [(UnsafeRawPointer, Int)] = []
      withUnsafeMutablePointer(to: &sections) { context in
        enumerate(
          { sections, context in
            // MetadataSections: version, reserved, next, prev, then ranges of (start, length);
            // the second range is swift5_protocol_conformances.
            guard let sections, let context else { return true }
            let words = sections.assumingMemoryBound(to: UInt.self)
            let start = words[6]
            let length = words[7]
            if let pointer = UnsafeRawPointer(bitPattern: start), length > 0 {
              context.assumingMemoryBound(to: [(UnsafeRawPointer, Int)].self).pointee
                .append((pointer, Int(length) / 4))
            }
            return true
          },
          UnsafeMutableRawPointer(context)
        )
      }
      for (start, count) in sections { body(start, count) }
      return true
    #else
      return false
    #endif
  }

  /// Follows a 32-bit relative pointer stored at `address`.
  private static func relative(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.loadUnaligned(as: Int32.self)
    return offset == 0 ? nil : address + Int(offset)
  }

  /// Follows a relative pointer whose low bit says it points to a pointer to the target.
  private static func relativeIndirectable(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
    let offset = address.loadUnaligned(as: Int32.self)
    guard offset != 0 else { return nil }
    let target = address + Int(offset & ~1)
    if offset & 1 == 0 { return target }
    return target.loadUnaligned(as: UnsafeRawPointer?.self)
  }

  /// The name of a context descriptor (module, protocol or type): the relative pointer at +8.
  private static func name(of descriptor: UnsafeRawPointer) -> String? {
    relative(descriptor + 8).map { String(cString: $0.assumingMemoryBound(to: CChar.self)) }
  }

  private static func scan(
    _ start: UnsafeRawPointer,
    _ count: Int,
    systemHasClocks: Bool,
    into result: inout Result
  ) {
    for index in 0..<count {
      let record = start + index * 4
      guard let conformance = relative(record),
        let proto = relativeIndirectable(conformance),
        let protoName = name(of: proto),
        protoName == "DependencyKey" || protoName == "MainActorDependencyKey",
        let module = relativeIndirectable(proto + 4),
        name(of: module) == "TinyDependency"
      else { continue }
      // The type reference's kind sits in bits 3-5 of the flags at +12: 0 is a direct type
      // descriptor, 1 an indirect one; the others are Objective-C classes.
      let flags = conformance.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
      let descriptor: UnsafeRawPointer?
      switch (flags >> 3) & 7 {
      case 0: descriptor = relative(conformance + 4)
      case 1: descriptor = relative(conformance + 4)?.loadUnaligned(as: UnsafeRawPointer?.self)
      default: descriptor = nil
      }
      guard let descriptor else { continue }
      let typeFlags = descriptor.loadUnaligned(as: UInt32.self)
      let kind = typeFlags & 0x1F
      guard (16...18).contains(kind) else { continue }  // class, struct, enum
      let typeName = name(of: descriptor) ?? "?"
      // Before the type's metadata is touched: on a system without clocks, the clock keys'
      // values would use types that don't exist.
      if !systemHasClocks, clockKeys.contains(typeName),
        let parent = relativeIndirectable(descriptor + 4),
        name(of: parent) == "TinyDependencyBuiltins"
      {
        continue
      }
      if typeFlags & 0x80 != 0 {
        // The wrapper main-actor keys are stored under: they are found by their own names.
        let isWrapper =
          typeName == "MainActorKey"
          && relativeIndirectable(descriptor + 4).flatMap(name(of:)) == "TinyDependency"
        if !isWrapper { result.skippedGeneric.append(typeName) }
        continue
      }
      // The metadata access function, at +12, takes a request (0: complete) and returns the
      // metadata in the first return register.
      guard let accessor = relative(descriptor + 12) else { continue }
      typealias Access = @convention(c) (Int) -> UnsafeRawPointer?
      let access = unsafeBitCast(accessor, to: Access.self)
      guard let metadata = access(0) else { continue }
      let type = unsafeBitCast(metadata, to: Any.Type.self)
      if protoName == "MainActorDependencyKey" {
        if let key = type as? any MainActorDependencyKey.Type {
          let name = _typeName(key, qualified: true)
          result.mainActorKeys.append(FoundMainActor(type: key, name: name))
        }
      } else if let key = type as? any DependencyKey.Type {
        result.keys.append(Found(type: key, name: _typeName(key, qualified: true)))
      }
    }
  }
}
