package dev.lomicontrol.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.StoredConfig;
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
        Git git =
                Git.init().setDirectory(root.toFile()).setInitialBranch("main").call();
        identify(git);
        return new GitFixture(root, git);
    }

    static GitFixture cloneOf(Path bare, Path root) throws GitAPIException, IOException {
        Git git = Git.cloneRepository()
                .setURI(bare.toUri().toString())
                .setDirectory(root.toFile())
                .call();
        identify(git);
        return new GitFixture(root, git);
    }

    private static void identify(Git git) throws IOException {
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Test Author");
        config.setString("user", null, "email", "author@example.com");
        config.save();
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

    /** Forty lines, enough for rename detection to pair a moved file. */
    static String lines(String prefix) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            text.append(prefix).append(" line ").append(i).append('\n');
        }
        return text.toString();
    }

    @Override
    public void close() {
        git.close();
    }
}
