package dev.lomicontrol.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.testing.McpHelperProcess;
import dev.lomicontrol.tools.Toolset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A command line the real helper ({@code lomi-control --mcp}, a child JVM) cannot run with stops it
 * at once: exit status 2, the reason and the usage on stderr, not one byte on stdout (which belongs
 * to MCP).
 */
class HelperCommandLineTests {

    @TempDir
    Path temp;

    @Test
    void anUnknownToolsetStopsTheHelperWithStatusTwoNamingTheValidToolsets() throws Exception {
        Exit exit = run("--toolsets", "core,gti");

        assertThat(exit.status()).isEqualTo(2);
        assertThat(exit.stdout()).isEmpty();
        assertThat(exit.stderr())
                .contains("unknown toolset 'gti'")
                .contains(Toolset.names())
                .contains("usage: lomi-control --mcp");
    }

    @Test
    void anUnknownArgumentStopsTheHelperWithStatusTwoAndTheUsage() throws Exception {
        Exit exit = run("--bogus");

        assertThat(exit.status()).isEqualTo(2);
        assertThat(exit.stdout()).isEmpty();
        assertThat(exit.stderr()).contains("unknown argument --bogus").contains("usage: " + HelperOptions.USAGE);
    }

    record Exit(int status, byte[] stdout, String stderr) {}

    /** Starts the helper with {@code args} (stdin left open: it must stop by itself) and waits for its exit. */
    private Exit run(String... args) throws Exception {
        List<String> helperArgs = new ArrayList<>(
                List.of("--discovery-file", temp.resolve("discovery.json").toString()));
        helperArgs.addAll(List.of(args));
        Path out = temp.resolve("helper.out");
        Path err = temp.resolve("helper.err");
        Process helper = new ProcessBuilder(McpHelperProcess.command(helperArgs))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        try {
            assertThat(helper.waitFor(60, TimeUnit.SECONDS))
                    .as("the helper stopped by itself")
                    .isTrue();
            return new Exit(helper.exitValue(), Files.readAllBytes(out), Files.readString(err));
        } finally {
            helper.destroyForcibly();
        }
    }
}
