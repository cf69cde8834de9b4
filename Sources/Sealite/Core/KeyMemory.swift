#if canImport(Glibc)
  import Glibc
#endif

/// Memory for key bytes that core dumps leave out, overwritten with zeros when
/// it is released.
///
/// Each allocation is its own anonymous mapping, marked `MADV_DONTDUMP`, rather
/// than a slice of a shared pool of pages: a process holds a handful of keys
/// (one per configured database, the hex form only while a connection is keyed),
/// so a page each costs little, and the pages go back to the system with
/// `munmap` after the wipe instead of staying in the process, waiting for
/// another key. No lock, no free list, and no key ever shares a page with
/// another key.
///
/// If the system refuses the mapping (the address space or the mapping count
/// is exhausted), the bytes live in an ordinary heap buffer instead: still
/// wiped on release, but part of a core dump. Opening a database must not fail
/// for want of that protection. ``isExcludedFromCoreDumps`` tells which.
struct KeyMemory: ~Copyable {
  /// The bytes asked for (at least one, so that the address is never nil).
  let bytes: UnsafeMutableRawBufferPointer
  /// True when the bytes lie in pages marked `MADV_DONTDUMP`.
  let isExcludedFromCoreDumps: Bool
  /// The whole mapping, or nil for a heap buffer.
  private let mapping: UnsafeMutableRawBufferPointer?

  /// Allocates `byteCount` bytes, zeroed. `mapped: false` takes the heap
  /// fallback at once (for tests of that path).
  init(byteCount: Int, mapped: Bool = true) {
    let count = max(byteCount, 1)
    if mapped, let mapping = KeyMemory.map(byteCount: count) {
      self.mapping = mapping
      bytes = UnsafeMutableRawBufferPointer(rebasing: mapping[0..<count])
      // A kernel without MADV_DONTDUMP (before Linux 3.4) still gives usable
      // pages: keep them, and say they are dumped.
      isExcludedFromCoreDumps = madvise(mapping.baseAddress, mapping.count, MADV_DONTDUMP) == 0
    } else {
      mapping = nil
      bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
      bytes.initializeMemory(as: UInt8.self, repeating: 0)
      isExcludedFromCoreDumps = false
    }
  }

  deinit {
    KeyMemory.wipe(bytes)
    if let mapping {
      munmap(mapping.baseAddress, mapping.count)
    } else {
      bytes.deallocate()
    }
  }

  /// Lends `byteCount` bytes of key memory to `body`, and wipes and releases
  /// them when `body` returns or throws.
  static func withTemporaryBytes<T>(
    byteCount: Int, _ body: (UnsafeMutableRawBufferPointer) throws -> T
  ) rethrows -> T {
    let memory = KeyMemory(byteCount: byteCount)
    return try withExtendedLifetime(memory) { try body(memory.bytes) }
  }

  /// Overwrites `buffer` with zeros in a way the compiler can not drop as a
  /// dead store (`explicit_bzero`).
  static func wipe(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    #if canImport(Glibc)
      explicit_bzero(base, buffer.count)
    #else
      memset(base, 0, buffer.count)
    #endif
  }

  /// Anonymous private pages for `byteCount` bytes, or nil if the system
  /// refuses them.
  private static func map(byteCount: Int) -> UnsafeMutableRawBufferPointer? {
    let pageSize = max(Int(sysconf(Int32(_SC_PAGESIZE))), 4096)
    let length = (byteCount + pageSize - 1) / pageSize * pageSize
    guard
      let address = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      address != UnsafeMutableRawPointer(bitPattern: -1)  // MAP_FAILED, a macro Swift does not import
    else { return nil }
    return UnsafeMutableRawBufferPointer(start: address, count: length)
  }
}
