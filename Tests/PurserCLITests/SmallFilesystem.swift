import Foundation
import PurserChaos

/// A small filesystem a test makes for itself and removes afterwards: a size-limited `tmpfs` (to fill the disk) or an
/// ext4 image on a loop device mounted `errors=remount-ro` (which the kernel turns read-only under an open file when
/// told an error happened). Both need root, as `scripts/test.sh` runs on CI; `available` says whether mounting works.
struct SmallFilesystem {
    enum Kind { case tmpfs, ext4 }

    let kind: Kind
    let mountPoint: URL
    let image: URL?

    /// Whether this process may mount filesystems (root with `CAP_SYS_ADMIN`), tried once.
    static let available: Bool = {
        guard getuid() == 0, let probe = try? SmallFilesystem(.tmpfs, megabytes: 1) else { return false }
        probe.remove()
        return true
    }()

    /// Whether this process may also attach a loop device with ext4 (`/dev/loop-control`, `mkfs.ext4`), tried once.
    static let ext4Available: Bool = {
        guard available, let probe = try? SmallFilesystem(.ext4, megabytes: 4) else { return false }
        probe.remove()
        return true
    }()

    /// Mounts a new filesystem of `megabytes` in a temporary directory.
    init(_ kind: Kind, megabytes: Int) throws {
        self.kind = kind
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("purser-fs-\(UUID())")
        mountPoint = base.appendingPathComponent("mnt")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        switch kind {
        case .tmpfs:
            image = nil
            try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)M", "tmpfs", mountPoint.path])
        case .ext4:
            let image = base.appendingPathComponent("disk.img")
            self.image = image
            try Self.run("/usr/bin/truncate", ["-s", "\(megabytes)M", image.path])
            try Self.run("/sbin/mkfs.ext4", ["-q", image.path])
            try mount()
        }
    }

    /// Mounts the ext4 image (again), read-write, turning read-only at its first error.
    func mount() throws {
        guard let image else { return }
        try Self.run("/bin/mount", ["-o", "loop,errors=remount-ro", image.path, mountPoint.path])
    }

    /// Unmounts the ext4 image and repairs it, as an operator would after the disk went read-only.
    func unmountAndRepair() throws {
        guard let image else { return }
        try Self.run("/bin/umount", [mountPoint.path])
        // e2fsck exits 1 when it fixed something, which is the point here.
        try Self.run("/sbin/e2fsck", ["-fy", image.path], accepting: [0, 1])
    }

    /// Fills the filesystem with one file until the disk is full; returns that file, whose removal frees the space.
    func fill() throws -> URL {
        let filler = mountPoint.appendingPathComponent("filler")
        _ = FileManager.default.createFile(atPath: filler.path, contents: nil)
        let handle = try FileHandle(forWritingTo: filler)
        defer { try? handle.close() }
        let chunk = Data(repeating: 0x55, count: 64 * 1024)
        do {
            while true { try handle.write(contentsOf: chunk) }
        } catch {
            // ENOSPC: full. Smaller writes take the last partial blocks.
            while (try? handle.write(contentsOf: Data(repeating: 0x55, count: 512))) != nil {}
        }
        return filler
    }

    /// Tells ext4 an error happened; with `errors=remount-ro` the kernel turns the filesystem read-only at once, even
    /// under files open for writing (as after a failing disk's I/O error).
    func failIntoReadOnly() throws {
        let name = try Self.loopDevice(backing: mountPoint)
        try Data("purser test\n".utf8).write(to: URL(fileURLWithPath: "/sys/fs/ext4/\(name)/trigger_fs_error"))
    }

    /// Unmounts (lazily, whatever still holds it) and deletes everything.
    func remove() {
        try? Self.run("/bin/umount", ["-l", mountPoint.path])
        try? FileManager.default.removeItem(at: mountPoint.deletingLastPathComponent())
    }

    /// The loop device (`loop3`) mounted at `mountPoint`, from /proc/mounts.
    static func loopDevice(backing mountPoint: URL) throws -> String {
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        let path = mountPoint.resolvingSymlinksInPath().path
        for line in mounts.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 1, fields[1] == path, fields[0].hasPrefix("/dev/loop") {
                return String(fields[0].dropFirst("/dev/".count))
            }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
    }

    /// Runs `tool` to its end, its output discarded, and throws unless its exit code is in `accepting`. A plain
    /// `posix_spawn` and `waitpid`, because the probes above are synchronous (`.enabled(if:)` reads them) and
    /// Foundation's `Process.run()` can crash this process (swift-corelibs-foundation#5472).
    static func run(_ tool: String, _ arguments: [String], accepting: Set<Int32> = [0]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([tool] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        let failed = CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(tool) \(arguments) failed"])
        guard posix_spawn(&pid, tool, &actions, nil, argv, environ) == 0 else { throw failed }
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // Exited normally (no signal in the low seven bits), with its code in the next byte.
        guard status & 0x7f == 0, accepting.contains((status >> 8) & 0xff) else { throw failed }
    }
}
