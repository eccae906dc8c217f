package dev.lomicontrol.files;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * One consistent look at a directory: its visible entries (sorted by name) and its revision.
 *
 * <p>The revision is SHA-256 over the directory's (dev, ino, mtime, ctime) and each visible entry's
 * (name, kind, inode). It deliberately leaves out file sizes: it guards the set of names that
 * create, rename, move and trash change, so an unrelated file growing does not invalidate it. A
 * directory that changes while being read is re-read a few times, then {@code REVISION_CONFLICT}.
 */
record DirectorySnapshot(String revision, Stat self, List<Item> items, boolean filtered) {

    /** Hard cap on visible entries in one directory. */
    static final int MAX_ENTRIES = 10_000;
    /** Hard cap on raw entries scanned in one directory (hidden ones included). */
    static final int MAX_SCANNED = 100_000;

    private static final int ATTEMPTS = 3;

    /** A visible entry with the status it had when listed. */
    record Item(String name, Stat stat) {
        EntryKind kind() {
            return stat.isDirectory() ? EntryKind.DIRECTORY : EntryKind.FILE;
        }
    }

    /** Reads {@code dir} (an open directory of {@code tree}) consistently. */
    static DirectorySnapshot of(Tree tree, Fd dir) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Stat before = dir.stat();
            List<Optional<String>> names = dir.names();
            if (names.size() > MAX_SCANNED) {
                throw tooMany(MAX_SCANNED);
            }
            boolean filtered = false;
            List<Item> items = new ArrayList<>();
            for (Optional<String> name : names) {
                Optional<Item> item = name.flatMap(n -> visibleItem(tree, dir, n));
                if (item.isEmpty()) {
                    filtered |= name.isEmpty() || dir.statAt(name.get()).isPresent();
                    continue;
                }
                items.add(item.get());
            }
            if (items.size() > MAX_ENTRIES) {
                throw tooMany(MAX_ENTRIES);
            }
            Stat after = dir.stat();
            if (before.sameStamp(after)) {
                items.sort(Comparator.comparing(Item::name));
                return new DirectorySnapshot(revision(after, items), after, List.copyOf(items), filtered);
            }
        }
        throw new LomiException(ErrorCode.REVISION_CONFLICT, "the directory kept changing while it was being listed");
    }

    private static LomiException tooMany(int limit) {
        return new LomiException(ErrorCode.RESOURCE_EXHAUSTED, "directory has more than " + limit + " entries");
    }

    private static Optional<Item> visibleItem(Tree tree, Fd dir, String name) {
        if (SecretPaths.isSecretName(name) || !isAddressable(name)) {
            return Optional.empty();
        }
        return dir.statAt(name).filter(tree::isVisible).map(st -> new Item(name, st));
    }

    private static boolean isAddressable(String name) {
        try {
            RelativePath.checkName(name);
            return true;
        } catch (LomiException e) {
            return false;
        }
    }

    private static String revision(Stat self, List<Item> items) {
        MessageDigest digest = Revisions.sha256();
        String identity = "lomi-directory-v1\n" + self.dev() + ":" + self.ino() + "\n"
                + self.mtimeSec() + "." + self.mtimeNsec() + "\n"
                + self.ctimeSec() + "." + self.ctimeNsec() + "\n";
        digest.update(identity.getBytes(StandardCharsets.UTF_8));
        for (Item item : items) {
            String line =
                    item.name() + "\0" + item.kind().wire() + "\0" + item.stat().ino() + "\n";
            digest.update(line.getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(digest.digest());
    }
}
