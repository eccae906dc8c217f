package dev.lomicontrol.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

/** Real-file helpers for the project files tests. */
final class Fixture {

    private Fixture() {}

    static Path write(Path root, String relative, String content) {
        return write(root, relative, content.getBytes(StandardCharsets.UTF_8));
    }

    static Path write(Path root, String relative, byte[] content) {
        try {
            Path file = root.resolve(relative);
            Files.createDirectories(file.getParent());
            return Files.write(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static long inode(Path path) {
        try {
            return (Long) Files.getAttribute(path, "unix:ino", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int mode(Path path) {
        try {
            return (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS) & 07777;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void chmod(Path path, int mode) {
        run("chmod", Integer.toOctalString(mode), path.toString());
    }

    static void mkfifo(Path path) {
        run("mkfifo", path.toString());
    }

    /** Runs a real command and requires exit status 0. */
    static void run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor()).as("%s: %s", List.of(command), out).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The names directly in {@code dir} that start with the temporary-file prefix. */
    static List<String> temporaries(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.startsWith(".lomi-"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The error code {@code call} fails with; fails the test if it succeeds or throws something else. */
    static ErrorCode code(ThrowingCallable call) {
        Throwable thrown = catchThrowable(call);
        assertThat(thrown).as("expected a LomiException").isInstanceOf(LomiException.class);
        return ((LomiException) thrown).code();
    }

    /** What a test does to the disk when the files reach a checkpoint. */
    interface Step {
        void run() throws IOException;
    }

    /** Files over {@code root} that run {@code step} each time they reach {@code checkpoint} (Checkpoints). */
    static ProjectFiles racing(Path root, String checkpoint, Step step) {
        return new ProjectFiles(
                root,
                stage -> {
                    if (stage.equals(checkpoint)) {
                        try {
                            step.run();
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                },
                new SecureRandom(),
                System::nanoTime);
    }

    /** As {@link #racing}, but {@code step} runs the first time only, which {@code ran} records. */
    static ProjectFiles racingOnce(Path root, String checkpoint, AtomicBoolean ran, Step step) {
        return racing(root, checkpoint, () -> {
            if (ran.compareAndSet(false, true)) {
                step.run();
            }
        });
    }

    static RelativePath p(String text) {
        return RelativePath.parse(text);
    }
}
