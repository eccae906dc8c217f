package dev.lomicontrol.files;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The broker's own directories (its data directory with the admin token, registration key, ledger
 * and artifacts; its runtime directory with the sockets): never visible through any project,
 * whatever they are called and wherever a project lies. Recognised by (device, inode), so a rename
 * or another path to them changes nothing; registered once at broker start for the whole process.
 * A match is confirmed against the registered directory, so an inode number reused after that
 * directory was deleted hides nothing.
 */
public final class BrokerDirectories {

    private static final Map<String, String> PROTECTED = new ConcurrentHashMap<>();

    private BrokerDirectories() {}

    /** Registers {@code directory} (it must exist); a directory that cannot be opened is left out. */
    public static void protect(Path directory) {
        try {
            String real = directory.toRealPath().toString();
            identity(real).ifPresent(key -> PROTECTED.put(key, real));
        } catch (IOException e) {
            // not there (yet): nothing inside a project can be it
        }
    }

    /** True for a registered directory that still exists. */
    static boolean isProtected(Stat st) {
        if (!st.isDirectory() || PROTECTED.isEmpty()) {
            return false;
        }
        String key = key(st);
        String registered = PROTECTED.get(key);
        if (registered == null) {
            return false;
        }
        if (identity(registered).filter(key::equals).isPresent()) {
            return true;
        }
        PROTECTED.remove(key, registered); // deleted or replaced since: its inode number means nothing now
        return false;
    }

    private static Optional<String> identity(String path) {
        Fd.Result opened = Fd.tryOpenAt(Libc.AT_FDCWD, path, Libc.DIRECTORY_HANDLE, 0);
        if (opened.fd() == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(key(opened.fd().stat()));
        } finally {
            opened.fd().close();
        }
    }

    private static String key(Stat st) {
        return st.dev() + ":" + st.ino();
    }
}
