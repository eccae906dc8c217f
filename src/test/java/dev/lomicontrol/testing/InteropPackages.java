package dev.lomicontrol.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The npm packages the interop tests run (real MCP clients and real agent CLIs), pinned in
 * {@code interop/package.json} and {@code interop/package-lock.json}. {@link #install()} runs
 * {@code npm ci} from the lockfile when any pinned package is missing or at another version, so a
 * fresh checkout (CI) and a checkout whose lockfile gained a package both get exactly the pinned set.
 */
public final class InteropPackages {

    /** {@code interop/} of the checkout: the scripts, package.json, the lockfile and node_modules. */
    public static final Path DIRECTORY = Path.of("interop").toAbsolutePath();

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private InteropPackages() {}

    /** Installs the pinned packages unless every one is already there at its pinned version; fails when npm fails. */
    public static synchronized void install() throws IOException, InterruptedException {
        Machine.requireOnPath("node", "--version", "nodejs (Node 20, see README)");
        Machine.requireOnPath("npm", "--version", "npm");
        List<String> missing = missing(DIRECTORY);
        if (missing.isEmpty()) {
            return;
        }
        System.err.println("interop: npm ci for " + missing);
        Process npm = new ProcessBuilder("npm", "ci", "--no-audit", "--no-fund")
                .directory(DIRECTORY.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!npm.waitFor(600, TimeUnit.SECONDS)) {
            npm.destroyForcibly();
            throw new AssertionError("npm ci in " + DIRECTORY + " did not finish within 600 s");
        }
        if (npm.exitValue() != 0) {
            throw new AssertionError("npm ci in " + DIRECTORY + " exited " + npm.exitValue());
        }
        List<String> still = missing(DIRECTORY);
        if (!still.isEmpty()) {
            throw new AssertionError("npm ci in " + DIRECTORY + " left these pinned packages missing: " + still);
        }
    }

    /** The executable a package put in {@code node_modules/.bin}. */
    public static Path bin(String name) {
        return DIRECTORY.resolve("node_modules/.bin").resolve(name);
    }

    /** {@code name@version} of each dependency pinned in {@code directory} that is not installed there at that version. */
    static List<String> missing(Path directory) throws IOException {
        JsonNode dependencies =
                JSON.readTree(directory.resolve("package.json").toFile()).path("dependencies");
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, JsonNode> dependency : dependencies.properties()) {
            String name = dependency.getKey();
            String version = dependency.getValue().asString();
            Path manifest = directory.resolve("node_modules").resolve(name).resolve("package.json");
            if (!Files.isRegularFile(manifest)
                    || !version.equals(
                            JSON.readTree(manifest.toFile()).path("version").asString())) {
                missing.add(name + "@" + version);
            }
        }
        return missing;
    }
}
