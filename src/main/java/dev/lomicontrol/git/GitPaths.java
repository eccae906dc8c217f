package dev.lomicontrol.git;

import dev.lomicontrol.core.ClientConfiguration;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.files.ClientConfigurationPaths;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SecretPaths;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.eclipse.jgit.diff.DiffEntry;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevWalk;

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

    /**
     * SCOPE_DENIED when {@code path} is MCP/IDE client configuration: a plan that writes the worktree
     * (discard) never writes it, as the file tools never do.
     */
    static void requireWritable(String path) {
        ClientConfigurationPaths.requireWritable(RelativePath.parse(path));
    }

    /**
     * SCOPE_DENIED when moving the worktree from HEAD to {@code target} (a fast-forward or a rebase onto
     * it) would write MCP/IDE client configuration: any such path that differs between the two trees.
     */
    static void requireNoClientConfigurationChange(Repository repo, ObjectId target) throws IOException {
        List<DiffEntry> changes;
        try (RevWalk walk = new RevWalk(repo)) {
            changes = Trees.scan(
                    repo,
                    Trees.headTree(repo),
                    Trees.tree(repo, walk.parseCommit(target).getTree()),
                    false);
        }
        TreeSet<String> touched = new TreeSet<>();
        for (DiffEntry change : changes) {
            for (String path : List.of(change.getOldPath(), change.getNewPath())) {
                if (!path.equals(DiffEntry.DEV_NULL) && !hidden(path) && isClientConfiguration(path)) {
                    touched.add(path);
                }
            }
        }
        if (!touched.isEmpty()) {
            throw new LomiException(
                    ErrorCode.SCOPE_DENIED,
                    "the pull would write " + String.join(", ", touched) + " and was not applied (HEAD and the"
                            + " worktree are unchanged): "
                            + ClientConfiguration.writeRefused(touched.first()).getMessage()
                            + "; or pull outside lomi-control");
        }
    }

    private static boolean isClientConfiguration(String path) {
        try {
            return ClientConfigurationPaths.isClientConfiguration(RelativePath.parse(path));
        } catch (LomiException e) {
            return false;
        }
    }
}
