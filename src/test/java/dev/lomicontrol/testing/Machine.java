package dev.lomicontrol.testing;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.security.auth.module.UnixSystem;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a test needs from the machine. A missing program fails the test with the command that
 * installs it ({@code .ci/run} installs every one of them when missing): a test never skips because
 * a tool is absent. Only root-only cases are not run elsewhere, and they say why (CI runs as root).
 */
public final class Machine {

    private Machine() {}

    /** The executable at {@code path}; fails, naming the Debian package that provides it, when it is missing. */
    public static Path requireProgram(String path, String debianPackage) {
        Path program = Path.of(path);
        if (!Files.isExecutable(program)) {
            throw new AssertionError(path + " is needed by this test: apt-get install -y " + debianPackage
                    + " (.ci/run installs it when missing)");
        }
        return program;
    }

    /** Like {@link #requireProgram(String, String)} for a program found on PATH ({@code name -V}-style probe). */
    public static void requireOnPath(String name, String versionFlag, String debianPackage) {
        if (!succeeds(name, versionFlag)) {
            throw new AssertionError(name + " is needed by this test: apt-get install -y " + debianPackage
                    + " (.ci/run installs it when missing)");
        }
    }

    /** The Python that can import {@code module} ({@code python3} on the PATH, else Debian's {@code /usr/bin/python3}); fails, naming the Debian package that provides it, when neither can. */
    public static String requirePythonModule(String module, String debianPackage) {
        for (String python : List.of("python3", "/usr/bin/python3")) {
            if (succeeds(python, "-c", "import " + module)) {
                return python;
            }
        }
        throw new AssertionError("python3 and its module " + module + " are needed by this test: apt-get install -y "
                + debianPackage + " (.ci/run installs it when missing)");
    }

    /** Whether {@code command} runs and exits 0 within 30 s. */
    private static boolean succeeds(String... command) {
        try {
            Process probe =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            probe.getInputStream().readAllBytes();
            return probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The first line {@code program args...} prints (stdout and stderr together), or "" when it cannot run. */
    public static String firstLine(Path program, String... args) {
        try {
            List<String> command = new java.util.ArrayList<>(List.of(program.toString()));
            command.addAll(List.of(args));
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            process.waitFor(30, TimeUnit.SECONDS);
            return out.lines().findFirst().orElse("");
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    public static boolean isRoot() {
        return new UnixSystem().getUid() == 0;
    }

    /**
     * Ends a root-only case on a machine where the test does not run as root, reported as aborted
     * with {@code why}. CI runs as root, so there the case always runs.
     */
    public static void assumeRoot(String why) {
        assumeTrue(isRoot(), () -> "not run: " + why + "; this case needs root and runs in CI, which runs as root");
    }
}
