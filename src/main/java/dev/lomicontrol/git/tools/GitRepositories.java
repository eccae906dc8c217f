package dev.lomicontrol.git.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.files.RelativePath;
import dev.lomicontrol.files.SecretPaths;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.git.GitRepository;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The precondition every git tool shares, written once: the granted workspace and the repository a
 * call names by {@code repositoryRelative}. {@code ""} is the project root's; otherwise a nested
 * repository's root by its project-relative path, reached without following any link and never
 * through a secret path (SCOPE_DENIED); anything else is TARGET_NOT_FOUND.
 */
final class GitRepositories {

    private final FileCalls files;

    GitRepositories(FileCalls files) {
        this.files = files;
    }

    /** A granted workspace, the repository's project-relative path ("" = the project's) and the repository. */
    record Repo(WorkspaceAccess.Listed listed, String relative, GitRepository git) {
        String workspaceId() {
            return listed.workspace().id().value();
        }
    }

    Repo open(Session session, WorkspaceId workspaceId, String repositoryRelative) {
        WorkspaceAccess.Listed listed = files.listed(session, workspaceId);
        Path root = listed.project().root();
        RelativePath relative = RelativePath.parse(repositoryRelative);
        if (relative.isRoot()) {
            return new Repo(listed, "", GitRepository.open(root));
        }
        if (SecretPaths.isSecret(relative)) {
            throw new LomiException(ErrorCode.SCOPE_DENIED, "secret paths are not available");
        }
        Path current = root;
        for (String part : relative.components()) {
            try {
                current = current.resolve(part);
            } catch (java.nio.file.InvalidPathException e) {
                throw new LomiException(
                        ErrorCode.INVALID_ARGUMENT, "repository path " + relative + " is not a file name here");
            }
            if (Files.isSymbolicLink(current) || !Files.isDirectory(current, LinkOption.NOFOLLOW_LINKS)) {
                throw new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no repository at " + relative + " (" + part + " is not a directory of the project)");
            }
        }
        try {
            return new Repo(listed, relative.toString(), GitRepository.open(current));
        } catch (LomiException e) {
            throw new LomiException(ErrorCode.TARGET_NOT_FOUND, relative + " is not the root of a git repository");
        }
    }
}
