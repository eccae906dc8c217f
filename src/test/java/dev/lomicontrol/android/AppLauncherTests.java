package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.android.FakeAdbd.Answer;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What we send to deliver a launch intent and how we read {@code am}'s answer, against the real adb
 * server and the test device answering in the output format of the real {@code am start -W} and
 * {@code cmd package resolve-activity --brief} (AOSP's ActivityManagerShellCommand). They prove our
 * commands and parsing through the real adb — not that Android starts anything.
 */
class AppLauncherTests {

    static final Duration CALL = Duration.ofSeconds(10);

    static final String STARTED = """
            Starting: Intent { cmp=com.example.app/.Main }
            Status: ok
            LaunchState: COLD
            Activity: com.example.app/.Main
            TotalTime: 412
            WaitTime: 418
            Complete
            """;
    static final String TO_TOP = """
            Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] cmp=com.example.app/.Home }
            Warning: Activity not started, intent has been delivered to currently running top-most instance.
            Status: ok
            LaunchState: UNKNOWN (0)
            Activity: com.example.app/.Home
            WaitTime: 3
            Complete
            """;
    static final String NO_CLASS = """
            Error type 3
            Error: Activity class {com.example.app/com.example.app.Nope} does not exist.
            """;
    static final String DENIED = """
            Exception occurred while executing 'start':
            java.lang.SecurityException: Permission Denial: starting Intent { cmp=com.example.app/.Secret } from null (pid=4242, uid=2000) not exported from uid 10123
            \tat com.android.server.wm.ActivityTaskSupervisor.checkStartAnyActivityPermission(ActivityTaskSupervisor.java:1163)
            """;
    static final String RESOLVED = """
            priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=false
            com.example.app/.Home
            """;

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;
    static FakeAdbd device;
    static AppLauncher launcher;

    static final Map<String, Answer> AM = Map.of(
            "com.example.app/.Main", Answer.out(STARTED),
            "com.example.app/.Home", Answer.out(TO_TOP),
            "com.example.app/.Nope",
                    new Answer(
                            "Starting: Intent { cmp=com.example.app/.Nope }\n".getBytes(StandardCharsets.UTF_8),
                            NO_CLASS.getBytes(StandardCharsets.UTF_8),
                            255),
            "com.example.app/.Secret", new Answer(new byte[0], DENIED.getBytes(StandardCharsets.UTF_8), 255),
            "com.example.app/.Silent", Answer.out("Starting: Intent { cmp=com.example.app/.Silent }\n"));

    @BeforeAll
    static void attachTheTestDevice() throws IOException {
        server = PrivateAdbServer.prepare(scratch);
        device = FakeAdbd.open().onShell(AppLauncherTests::answer);
        server.connect(device, DeviceState.DEVICE);
        launcher = new AppLauncher(server.bridge());
    }

    static Answer answer(List<String> argv) {
        if (argv.size() == 5 && argv.subList(0, 4).equals(List.of("am", "start", "-W", "-n"))) {
            return AM.getOrDefault(
                    argv.get(4), Answer.fail("Error: Activity not started, unable to resolve Intent\n", 255));
        }
        if (argv.size() > 2 && argv.get(0).equals("cmd") && argv.get(2).equals("resolve-activity")) {
            return argv.get(argv.size() - 1).equals("com.example.app")
                    ? Answer.out(RESOLVED)
                    : Answer.out("No activity found\n");
        }
        return Answer.fail("unexpected\n", 127);
    }

    @AfterAll
    static void stop() throws IOException {
        device.close();
        server.close();
    }

    static List<String> lastCommand() {
        List<List<String>> commands = device.shellCommands();
        return commands.get(commands.size() - 1);
    }

    static void assertCode(Runnable call, ErrorCode code, String said) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).contains(said);
        });
    }

    @Test
    void anExplicitActivityIsStartedWithAmStartAndStatusOkIsDelivery() {
        assertThat(launcher.launch(device.serial(), "com.example.app", Optional.of(".Main"), CALL))
                .isEqualTo(new AppLauncher.Delivered("com.example.app/.Main", "ok"));
        assertThat(lastCommand()).containsExactly("am", "start", "-W", "-n", "com.example.app/.Main");
    }

    @Test
    void withoutAnActivityTheLauncherActivityIsResolvedFirst() {
        int before = device.shellCommands().size();
        assertThat(launcher.launch(device.serial(), "com.example.app", Optional.empty(), CALL))
                .isEqualTo(new AppLauncher.Delivered("com.example.app/.Home", "ok"));
        assertThat(device.shellCommands().subList(before, device.shellCommands().size()))
                .containsExactly(
                        List.of(
                                "cmd",
                                "package",
                                "resolve-activity",
                                "--brief",
                                "-a",
                                "android.intent.action.MAIN",
                                "-c",
                                "android.intent.category.LAUNCHER",
                                "com.example.app"),
                        List.of("am", "start", "-W", "-n", "com.example.app/.Home"));
    }

    @Test
    void aPackageWithNoLauncherActivityIsTargetNotFoundAndNothingIsStarted() {
        long before = device.count("am");
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.absent", Optional.empty(), CALL),
                ErrorCode.TARGET_NOT_FOUND,
                "No activity found");
        assertThat(device.count("am")).isEqualTo(before);
    }

    @Test
    void amErrorsAreRefusalsWithTheDevicesWords() {
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.app", Optional.of(".Nope"), CALL),
                ErrorCode.TARGET_NOT_FOUND,
                "does not exist");
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.app", Optional.of(".Other"), CALL),
                ErrorCode.TARGET_NOT_FOUND,
                "unable to resolve Intent");
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.app", Optional.of(".Secret"), CALL),
                ErrorCode.UNSUPPORTED_CAPABILITY,
                "Exception occurred while executing");
    }

    @Test
    void anAnswerWithNeitherStatusNorErrorIsOutcomeUnknown() {
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.app", Optional.of(".Silent"), CALL),
                ErrorCode.OUTCOME_UNKNOWN,
                "neither Status: nor Error:");
    }

    @Test
    void namesThatAreNotPackageOrClassNamesAreRefusedBeforeAnythingIsSent() {
        int before = device.shellCommands().size();
        assertCode(
                () -> launcher.launch(device.serial(), "com.example;reboot", Optional.empty(), CALL),
                ErrorCode.INVALID_ARGUMENT,
                "packageName");
        assertCode(
                () -> launcher.launch(device.serial(), "com.example.app", Optional.of("$(id)"), CALL),
                ErrorCode.INVALID_ARGUMENT,
                "activity");
        assertThat(device.shellCommands()).hasSize(before);
    }
}
