package dev.lomicontrol.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code bin/lomi-control --mcp} against what {@code package} built (this runs after it, under
 * failsafe): the helper path never builds, says so at once when nothing is built, starts with its
 * class-data-sharing archive, and still works on a JVM that cannot use that archive.
 */
class HelperLaunchIT {

    private static final Path PROJECT = Path.of("").toAbsolutePath();
    private static final Path LAYOUT = PROJECT.resolve("target/helper");
    private static final String INITIALIZE =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\","
                    + "\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @Test
    void withNothingBuiltTheHelperSaysSoAndExitsAtOnceWithoutBuilding() throws Exception {
        Path home = fakeCheckout();
        Process helper = launch(home.resolve("bin/lomi-control"), Map.of(), "--mcp");
        helper.getOutputStream().close();

        assertThat(helper.waitFor(10, TimeUnit.SECONDS)).as("exits at once").isTrue();
        assertThat(helper.exitValue()).isEqualTo(3);
        String stderr = new String(helper.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(stderr)
                .contains("nothing is built")
                .contains("never builds")
                .contains("./mvnw -B -DskipTests package");
        assertThat(helper.getInputStream().readAllBytes())
                .as("stdout stays empty")
                .isEmpty();
        assertThat(home.resolve("mvnw-was-run")).doesNotExist();
    }

    @Test
    void withSourcesNewerThanTheBuildTheHelperRunsWhatIsBuiltWithoutBuilding() throws Exception {
        Path home = fakeCheckout();
        Files.createDirectories(home.resolve("target"));
        Files.createSymbolicLink(home.resolve("target/helper"), LAYOUT);
        Files.setLastModifiedTime(
                home.resolve("src/main/Newer.java"), FileTime.from(Instant.now().plusSeconds(3600)));

        JsonNode answer = initialize(home.resolve("bin/lomi-control"), Map.of());

        assertThat(answer.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
        assertThat(home.resolve("mvnw-was-run")).doesNotExist();
    }

    @Test
    void theBuiltHelperMapsItsClassesFromTheCdsArchive() throws Exception {
        assertThat(LAYOUT.resolve("helper.jsa")).as("package made the archive").exists();
        Path log = temp.resolve("class-load.log");

        JsonNode answer = initialize(
                PROJECT.resolve("bin/lomi-control"),
                Map.of("LOMI_CONTROL_JAVA_OPTS", "-Xlog:class+load=info:file=" + log));

        assertThat(answer.at("/result/serverInfo/name").asString()).isEqualTo("lomi-control");
        assertThat(Files.readString(log))
                .as("classes come from the dynamic archive")
                .contains("source: shared objects file (top)");
    }

    @Test
    void theArchiveWasTrainedOnASessionThatReachedARealBrokerAndTheLayoutHasNoSignedJars() throws Exception {
        Path transcript = PROJECT.resolve("target/helper-training/stdout");
        assertThat(Files.readString(transcript))
                .as("the training session's forwarded reads were answered by the training broker")
                .contains("\\\"kind\\\":\\\"file_text\\\"");
        try (java.util.stream.Stream<Path> jars = Files.list(LAYOUT.resolve("lib"))) {
            for (Path jar : jars.toList()) {
                try (java.util.jar.JarFile file = new java.util.jar.JarFile(jar.toFile(), false)) {
                    assertThat(file.stream().map(java.util.jar.JarEntry::getName))
                            .as(jar.getFileName() + " carries no signature files")
                            .noneMatch(name -> name.matches("META-INF/[^/]+\\.(SF|RSA|DSA|EC)"));
                }
            }
        }
        Process listing = new ProcessBuilder(
                        "java",
                        "-XX:+UseSerialGC",
                        "-XX:SharedArchiveFile=" + LAYOUT.resolve("helper.jsa"),
                        "-XX:+PrintSharedArchiveAndExit",
                        "-jar",
                        LAYOUT.resolve("lomi-control.jar").toString())
                .redirectErrorStream(true)
                .start();
        String archived = new String(listing.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(listing.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(archived)
                .as("the connecting path (session certificate, TLS client, forwarding) is in the archive")
                .contains("org.bouncycastle.cert.X509v3CertificateBuilder")
                .contains("dev.lomicontrol.transport.SessionCertificate")
                .contains("dev.lomicontrol.mcp.Bridge$Forwarded$Answered");
    }

    @Test
    void theLayoutsClassPathHoldsOnlyTheHelpersLibrariesAndEveryOneOfThemIsThere() throws Exception {
        String classPath;
        try (java.util.jar.JarFile jar =
                new java.util.jar.JarFile(LAYOUT.resolve("lomi-control.jar").toFile())) {
            classPath = jar.getManifest().getMainAttributes().getValue("Class-Path");
        }
        List<String> entries = List.of(classPath.trim().split(" +"));
        assertThat(entries)
                .as("the helper's libraries")
                .anyMatch(entry -> entry.startsWith("lib/jackson-databind-3."))
                .anyMatch(entry -> entry.startsWith("lib/bcpkix-"))
                .noneMatch(
                        entry -> entry.matches(
                                "lib/(spring|jgit|org\\.eclipse|sqlite|pty4j|openai|anthropic|logback|netty|reactor|reactive).*"))
                .hasSizeLessThan(12);
        for (String entry : entries) {
            assertThat(LAYOUT.resolve(entry)).as(entry).exists();
        }
        try (java.util.stream.Stream<Path> jars = Files.list(LAYOUT.resolve("lib"))) {
            assertThat(jars.map(jar -> "lib/" + jar.getFileName()).toList())
                    .as("nothing else is left in the layout")
                    .containsExactlyInAnyOrderElementsOf(entries);
        }
    }

    @Test
    void aLauncherReachedThroughASymlinkedBinDirectoryFindsItsBuild() throws Exception {
        Path elsewhere = Files.createDirectories(temp.resolve("elsewhere"));
        Files.createSymbolicLink(elsewhere.resolve("bin"), PROJECT.resolve("bin"));

        JsonNode answer = initialize(elsewhere.resolve("bin/lomi-control"), Map.of());

        assertThat(answer.at("/result/serverInfo/name").asString()).isEqualTo("lomi-control");
    }

    @Test
    void aJvmThatCannotUseTheArchiveStillRunsTheHelperWithCleanStdout() throws Exception {
        Path copy = temp.resolve("checkout");
        Files.createDirectories(copy.resolve("bin"));
        for (String script : List.of("lomi-control", "helper-jvm-options")) {
            Files.copy(PROJECT.resolve("bin/" + script), copy.resolve("bin/" + script));
        }
        Path helper = Files.createDirectories(copy.resolve("target/helper"));
        Files.createSymbolicLink(helper.resolve("lomi-control.jar"), LAYOUT.resolve("lomi-control.jar"));
        Files.createSymbolicLink(helper.resolve("lib"), LAYOUT.resolve("lib"));
        Files.write(helper.resolve("helper.jsa"), "not a class data sharing archive".getBytes(StandardCharsets.UTF_8));

        JsonNode answer = initialize(copy.resolve("bin/lomi-control"), Map.of());

        assertThat(answer.at("/result/protocolVersion").asString()).isEqualTo("2025-11-25");
    }

    /** A checkout with the launcher, a Maven wrapper that only records being run, and a source file. */
    private Path fakeCheckout() throws IOException {
        Path home = temp.resolve("checkout");
        Files.createDirectories(home.resolve("bin"));
        for (String script : List.of("lomi-control", "helper-jvm-options")) {
            Files.copy(PROJECT.resolve("bin/" + script), home.resolve("bin/" + script));
        }
        Path mvnw = Files.writeString(
                home.resolve("mvnw"), "#!/usr/bin/env bash\ntouch \"$(dirname \"$0\")/mvnw-was-run\"\n");
        mvnw.toFile().setExecutable(true);
        Files.createDirectories(home.resolve("src/main"));
        Files.writeString(home.resolve("src/main/Newer.java"), "class Newer {}\n");
        Files.writeString(home.resolve("pom.xml"), "<project/>\n");
        return home;
    }

    /** Starts the helper, sends initialize and returns the first stdout line, which must be that answer and nothing else. */
    private JsonNode initialize(Path launcher, Map<String, String> environment) throws Exception {
        Process helper = launch(
                launcher,
                environment,
                "--mcp",
                "--discovery-file",
                temp.resolve("none/discovery.json").toString());
        try (OutputStream stdin = helper.getOutputStream();
                BufferedReader stdout =
                        new BufferedReader(new InputStreamReader(helper.getInputStream(), StandardCharsets.UTF_8))) {
            stdin.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            String line = stdout.readLine();
            assertThat(line).as("an answer on stdout").isNotNull();
            JsonNode answer = JSON.readTree(line);
            assertThat(answer.path("id").asInt()).isEqualTo(1);
            return answer;
        } finally {
            helper.destroy();
            helper.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private Process launch(Path launcher, Map<String, String> environment, String... arguments) throws IOException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", launcher.toString()));
        command.addAll(List.of(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.PIPE);
        builder.environment().put("HOME", temp.toString());
        builder.environment().putAll(environment);
        return builder.start();
    }
}
