package dev.lomicontrol.git;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SecretPaths;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/** Path rules shared by reads and plans: valid, relative, never secret. */
final class GitPaths {

    private GitPaths() {}

    /** Validates a caller's path: INVALID_ARGUMENT when malformed, SCOPE_DENIED when secret. */
    static String checked(String path) {
        RelativePath parsed = RelativePath.parse(path);
        if (parsed.isRoot()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a file path is required");
        }
        if (SecretPaths.isSecret(parsed)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "secret paths are not available");
        }
        return parsed.toString();
    }

    /**
     * TARGET_NOT_FOUND when a directory on the way to {@code path} is a symbolic link: git does not
     * look through links, and neither may a plan (it would touch files outside the worktree).
     */
    static void requireNoLinkedParent(Path worktree, String path) {
        Path current = worktree;
        String[] parts = path.split("/");
        for (int i = 0; i < parts.length - 1; i++) {
            current = current.resolve(parts[i]);
            if (Files.isSymbolicLink(current)) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no such path in the repository: " + path + " (" + parts[i] + " is a link)");
            }
        }
    }

    /**
     * SCOPE_DENIED when the worktree file at {@code path} is a hard link (more than one name): its
     * other name may be outside the project, so neither its bytes nor a plan touching it are allowed
     * (the file tools refuse it the same way). A missing path is fine here.
     */
    static void requireNotHardLinked(Path worktree, String path) {
        Path file = worktree.resolve(path);
        try {
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)
                    && ((Number) Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue() > 1) {
                throw new LomiException(
                        ErrorCode.SCOPE_DENIED, path + " has other names (hard links); it is not available");
            }
        } catch (java.io.IOException e) {
            // gone meanwhile: the caller reports what it finds
        }
    }

    /** INVALID_ARGUMENT when {@code path} is a directory in the worktree: git tools take files. */
    static void requireNotDirectory(Path worktree, String path) {
        if (Files.isDirectory(worktree.resolve(path), LinkOption.NOFOLLOW_LINKS)) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "name files, not directories: " + path);
        }
    }

    /** True when a repository path must stay invisible (secret, or not a valid relative path). */
    static boolean hidden(String path) {
        try {
            return SecretPaths.isSecret(RelativePath.parse(path));
        } catch (LomiException e) {
            return true;
        }
    }
}
