package dev.lomicontrol.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The npm side of the interop tests: {@code interop/} with its modules installed from
 * {@code interop/package-lock.json} ({@code npm ci}, once, when they are missing). Node and npm
 * missing fail the test with their install command.
 */
public final class InteropClients {

    /** The npm project of the real clients and checkers. */
    public static final Path DIR = Path.of("interop").toAbsolutePath();

    private InteropClients() {}

    /** {@link #DIR}, its modules installed; call it from {@code @BeforeAll}. */
    public static Path installed() throws Exception {
        Machine.requireOnPath("node", "--version", "nodejs (Node 20, see README)");
        Machine.requireOnPath("npm", "--version", "npm");
        if (Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/sdk"))
                && Files.isDirectory(DIR.resolve("node_modules/@modelcontextprotocol/client"))) {
            return DIR;
        }
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund")
                .directory(DIR.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(npm.waitFor(600, TimeUnit.SECONDS)).as("npm ci finished").isTrue();
        assertThat(npm.exitValue()).as("npm ci in " + DIR).isZero();
        return DIR;
    }
}
