package dev.lomicontrol.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.UserDirectories;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * N5 (security review 2026-12-06): {@code bin/lomi-control} rebuilds when the sources are newer
 * than the jar; it used to run the Maven of {@code ~/.m2/wrapper} with the plugins and jars of
 * {@code ~/.m2/repository}, both writable from every sandboxed shell. It now builds with a wrapper
 * home and a repository of its own ({@link UserDirectories#launcherBuild()}), which the broker hides
 * from shells ({@code AttackSandboxCachesTests} writes there from a real sandbox and fails). A
 * checkout with the real launcher and a Maven wrapper that records how it was run.
 */
class LauncherBuildTests {

    static final Path PROJECT = Path.of("").toAbsolutePath();

    @TempDir
    Path temp;

    @Test
    void theRebuildUsesTheLaunchersOwnMavenAndRepositoryNeverTheUsersM2() throws Exception {
        Path home = temp.resolve("checkout");
        Files.createDirectories(home.resolve("bin"));
        for (String script : List.of("lomi-control", "helper-jvm-options", "broker-jvm-options")) {
            Files.copy(PROJECT.resolve("bin/" + script), home.resolve("bin/" + script));
        }
        Path mvnw = Files.writeString(
                home.resolve("mvnw"),
                "#!/usr/bin/env bash\nprintf '%s\\n' \"MAVEN_USER_HOME=${MAVEN_USER_HOME:-}\" \"$@\" > \"$(dirname \"$0\")/mvnw-ran\"\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwx------"));
        Files.createDirectories(home.resolve("src/main"));
        Files.writeString(home.resolve("src/main/Newer.java"), "class Newer {}\n");
        Files.writeString(home.resolve("pom.xml"), "<project/>\n");
        Path user = Files.createDirectories(temp.resolve("user"));

        ProcessBuilder builder = new ProcessBuilder(
                        home.resolve("bin/lomi-control").toString(), "console", "status")
                .redirectErrorStream(true);
        Map<String, String> environment = builder.environment();
        environment.put("HOME", user.toString());
        environment.remove("XDG_STATE_HOME");
        environment.remove("LOMI_CONTROL_BUILD_HOME");
        environment.remove("MAVEN_USER_HOME");
        environment.put("LOMI_CONTROL_JAVA", "/bin/true");
        Process launcher = builder.start();
        String output = new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(launcher.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(launcher.exitValue()).as(output).isZero();

        Path build = UserDirectories.of(Map.of("HOME", user.toString())).launcherBuild();
        assertThat(build).isEqualTo(user.resolve(".local/state/lomi-control/build"));
        assertThat(Files.readAllLines(home.resolve("mvnw-ran")))
                .as("how the launcher ran the wrapper")
                .contains("MAVEN_USER_HOME=" + build, "-Dmaven.repo.local=" + build.resolve("repository"), "package")
                .noneMatch(line -> line.contains(user.resolve(".m2").toString()));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(build)))
                .isEqualTo("rwx------");
        assertThat(output).contains("building", build.toString());
    }
}
