package dev.lomicontrol.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.StoredConfig;

/**
 * A real bare repository {@code remote.git} on disk with one seed commit on {@code main} (a file
 * {@code shared.txt}, pushed from a throw-away clone {@code seed}), and the clones a test makes of
 * it. Every repository made here has the same author, so commits need no further set-up. Closing it
 * closes the clones.
 */
public final class GitRemote implements AutoCloseable {

    /** What {@code shared.txt} holds in the seed commit unless a test names it. */
    public static final String SHARED = "one\ntwo\nthree\n";

    private final Path bare;
    private final List<Git> clones = new ArrayList<>();

    private GitRemote(Path bare) {
        this.bare = bare;
    }

    /** {@code temp/remote.git} with a seed commit whose {@code shared.txt} is {@link #SHARED}. */
    public static GitRemote seeded(Path temp) throws GitAPIException, IOException {
        return seeded(temp, SHARED);
    }

    /** {@code temp/remote.git} with a seed commit whose {@code shared.txt} is {@code shared}. */
    public static GitRemote seeded(Path temp, String shared) throws GitAPIException, IOException {
        Path bare = empty(temp.resolve("remote.git"));
        Path seed = temp.resolve("seed");
        try (Git git = init(seed, "main")) {
            Files.writeString(seed.resolve("shared.txt"), shared);
            git.add().addFilepattern("shared.txt").call();
            git.commit().setMessage("seed").call();
            git.push().setRemote(bare.toUri().toString()).add("main").call();
        }
        return new GitRemote(bare);
    }

    /** An empty bare repository at {@code bare} whose first branch will be {@code main}. */
    public static Path empty(Path bare) throws GitAPIException {
        Git.init()
                .setBare(true)
                .setDirectory(bare.toFile())
                .setInitialBranch("main")
                .call()
                .close();
        return bare;
    }

    /** A new repository in {@code dir} on {@code branch}, with the test author; the caller closes it. */
    public static Git init(Path dir, String branch) throws GitAPIException, IOException {
        Git git = Git.init().setDirectory(dir.toFile()).setInitialBranch(branch).call();
        identify(git);
        return git;
    }

    /** A clone of the remote in {@code dir}, with the test author; closed with this remote. */
    public Git cloneInto(Path dir) throws GitAPIException, IOException {
        Git git = Git.cloneRepository().setURI(uri()).setDirectory(dir.toFile()).call();
        identify(git);
        clones.add(git);
        return git;
    }

    /** Where the bare repository is. */
    public Path bare() {
        return bare;
    }

    /** The remote's {@code file:} URI, as a clone's {@code origin} names it. */
    public String uri() {
        return bare.toUri().toString();
    }

    /** The commit {@code ref} names in the remote, or {@code ""} when it names none. */
    public String head(String ref) throws IOException {
        try (Git remote = Git.open(bare.toFile())) {
            ObjectId id = remote.getRepository().resolve(ref);
            return id == null ? "" : id.name();
        }
    }

    /** The commit {@code HEAD} names in {@code git}. */
    public static String head(Git git) throws IOException {
        ObjectId id = git.getRepository().resolve("HEAD");
        if (id == null) {
            throw new IllegalStateException("no HEAD in " + git.getRepository().getDirectory());
        }
        return id.name();
    }

    /** Sets the author every commit in {@code git} gets. */
    public static void identify(Git git) throws IOException {
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Test Author");
        config.setString("user", null, "email", "author@example.com");
        config.save();
    }

    /** Forty lines, enough for rename detection to pair a moved file. */
    public static String lines(String prefix) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            text.append(prefix).append(" line ").append(i).append('\n');
        }
        return text.toString();
    }

    @Override
    public void close() {
        clones.forEach(Git::close);
        clones.clear();
    }
}
