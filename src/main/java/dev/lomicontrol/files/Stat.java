package dev.lomicontrol.files;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The fields of a Linux {@code statx} result that identity, kind and change detection need. The
 * {@code struct statx} layout is the same on every Linux architecture.
 */
record Stat(
        long dev,
        long ino,
        int mode,
        long nlink,
        int uid,
        int gid,
        long size,
        long mtimeSec,
        int mtimeNsec,
        long ctimeSec,
        int ctimeNsec,
        long attributes) {

    static final int BUFFER_SIZE = 256;
    static final int MASK_BASIC = 0x7ff;
    static final long ATTR_MOUNT_ROOT = 0x2000;

    private static final int S_IFMT = 0170000;
    private static final int S_IFDIR = 0040000;
    private static final int S_IFREG = 0100000;
    private static final int S_IFLNK = 0120000;

    /** Parses a filled {@code struct statx} buffer. */
    static Stat parse(byte[] buffer) {
        ByteBuffer b = ByteBuffer.wrap(buffer).order(ByteOrder.nativeOrder());
        long dev = ((long) b.getInt(136) << 32) | (b.getInt(140) & 0xffffffffL);
        return new Stat(
                dev,
                b.getLong(32),
                b.getShort(28) & 0xffff,
                b.getInt(16) & 0xffffffffL,
                b.getInt(20),
                b.getInt(24),
                b.getLong(40),
                b.getLong(112),
                b.getInt(120),
                b.getLong(96),
                b.getInt(104),
                b.getLong(8) & b.getLong(56));
    }

    boolean isDirectory() {
        return (mode & S_IFMT) == S_IFDIR;
    }

    boolean isRegular() {
        return (mode & S_IFMT) == S_IFREG;
    }

    boolean isSymlink() {
        return (mode & S_IFMT) == S_IFLNK;
    }

    boolean isMountRoot() {
        return (attributes & ATTR_MOUNT_ROOT) != 0;
    }

    /** The permission bits including setuid, setgid and sticky. */
    int permissions() {
        return mode & 07777;
    }

    /** Same inode on the same device. */
    boolean sameIdentity(Stat other) {
        return dev == other.dev && ino == other.ino;
    }

    /** Same inode and nothing about it changed (size, links, mtime, ctime). */
    boolean sameStamp(Stat other) {
        return sameIdentity(other)
                && size == other.size
                && nlink == other.nlink
                && mtimeSec == other.mtimeSec
                && mtimeNsec == other.mtimeNsec
                && ctimeSec == other.ctimeSec
                && ctimeNsec == other.ctimeNsec;
    }
}
