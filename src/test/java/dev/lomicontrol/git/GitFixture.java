package dev.lomicontrol.git;

import dev.lomicontrol.testing.GitRemote;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.revwalk.RevCommit;

/** Builds real repositories on disk with JGit for the tests. */
final class GitFixture implements AutoCloseable {

    final Path root;
    final Git git;

    private GitFixture(Path root, Git git) {
        this.root = root;
        this.git = git;
    }

    static GitFixture init(Path root) throws GitAPIException, IOException {
        Files.createDirectories(root);
        return new GitFixture(root, GitRemote.init(root, "main"));
    }

    /** A clone of {@code remote} in {@code root}; closed by this fixture, not by the remote. */
    static GitFixture cloneOf(GitRemote remote, Path root) throws GitAPIException, IOException {
        Git git = Git.cloneRepository()
                .setURI(remote.uri())
                .setDirectory(root.toFile())
                .call();
        GitRemote.identify(git);
        return new GitFixture(root, git);
    }

    GitFixture write(String path, String text) throws IOException {
        return writeBytes(path, text.getBytes(StandardCharsets.UTF_8));
    }

    GitFixture writeBytes(String path, byte[] bytes) throws IOException {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return this;
    }

    GitFixture add(String... paths) throws GitAPIException {
        for (String p : paths) {
            git.add().addFilepattern(p).call();
        }
        return this;
    }

    RevCommit commit(String message) throws GitAPIException {
        return git.commit().setMessage(message).call();
    }

    String read(String path) throws IOException {
        return Files.readString(root.resolve(path));
    }

    @Override
    public void close() {
        git.close();
    }
}
