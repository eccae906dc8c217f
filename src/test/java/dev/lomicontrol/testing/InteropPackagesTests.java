package dev.lomicontrol.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InteropPackagesTests {

    @TempDir
    Path interop;

    @Test
    void aPinnedPackageThatIsAbsentOrAtAnotherVersionIsMissingAndOneAtItsVersionIsNot() throws Exception {
        Files.writeString(
                interop.resolve("package.json"),
                "{\"dependencies\": {\"@scope/here\": \"1.2.3\", \"older\": \"2.0.0\", \"absent\": \"0.1.0\"}}");
        manifest("@scope/here", "1.2.3");
        manifest("older", "1.9.9");

        assertThat(InteropPackages.missing(interop)).containsExactly("older@2.0.0", "absent@0.1.0");
    }

    @Test
    void theInteropManifestPinsEveryPackageExactlyTheAgentClisIncluded() throws Exception {
        String manifest = Files.readString(InteropPackages.DIRECTORY.resolve("package.json"));
        assertThat(manifest)
                .contains(
                        "\"@anthropic-ai/claude-code\": \"2.1.",
                        "\"@openai/codex\": \"0.171.",
                        "\"@google/gemini-cli\": \"0.61.")
                .doesNotContain("\"^", "\"~");
    }

    private void manifest(String name, String version) throws Exception {
        Path dir = Files.createDirectories(interop.resolve("node_modules").resolve(name));
        Files.writeString(
                dir.resolve("package.json"), "{\"name\": \"" + name + "\", \"version\": \"" + version + "\"}");
    }
}
