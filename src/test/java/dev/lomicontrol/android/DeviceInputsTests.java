package dev.lomicontrol.android;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lomicontrol.android.DeviceInputs.InputReceipt;
import dev.lomicontrol.android.InputEvent.Key;
import dev.lomicontrol.android.InputEvent.Navigation;
import dev.lomicontrol.android.InputEvent.NavigationKey;
import dev.lomicontrol.android.InputEvent.Rotate;
import dev.lomicontrol.android.InputEvent.Text;
import dev.lomicontrol.android.InputEvent.Touch;
import dev.lomicontrol.android.InputEvent.TouchPhase;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our ordered-input bookkeeping and the commands we send, against the real adb server and the test
 * device ({@link FakeAdbd} records every command it is asked to run). They prove what reaches the
 * device's shell through the real adb, and how often — not how Android's {@code input} behaves.
 */
class DeviceInputsTests {

    static final Duration CALL = Duration.ofSeconds(10);
    static final String GENERATION = "g1";

    @TempDir
    static Path scratch;

    static PrivateAdbServer server;
    static FakeAdbd device;
    static DeviceInputs inputs;
    static volatile int inputExit;

    @BeforeAll
    static void attachTheTestDevice() throws IOException {
        server = PrivateAdbServer.prepare(scratch);
        device = FakeAdbd.open()
                .onShell(argv -> argv.get(0).equals("input") || argv.get(0).equals("settings")
                        ? new FakeAdbd.Answer(
                                new byte[0], inputExit == 0 ? new byte[0] : "Error: boom\n".getBytes(), inputExit)
                        : FakeAdbd.Answer.fail("unexpected\n", 127));
        server.connect(device, DeviceState.DEVICE);
        inputs = new DeviceInputs(server.bridge());
    }

    @AfterAll
    static void stop() throws IOException {
        device.close();
        server.close();
    }

    static String lease() {
        return UUID.randomUUID().toString();
    }

    static InputReceipt send(String lease, long sequence, InputEvent event) {
        return inputs.send(device.serial(), GENERATION, lease, sequence, event, CALL);
    }

    static List<String> lastCommand() {
        List<List<String>> commands = device.shellCommands();
        return commands.get(commands.size() - 1);
    }

    static void assertCode(Runnable call, ErrorCode code) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(LomiException.class, e -> {
            assertThat(e.code()).isEqualTo(code);
            assertThat(e.getMessage()).isNotBlank();
        });
    }

    @Test
    void aRetriedSequenceReachesTheDeviceOnceAndAnswersTheEarlierReceipt() {
        String lease = lease();
        long before = device.count("input");
        InputReceipt first = send(lease, 1, new Touch(0, 120, 480, TouchPhase.DOWN));
        InputReceipt again = send(lease, 1, new Touch(0, 120, 480, TouchPhase.DOWN));

        assertThat(first).isEqualTo(new InputReceipt(1, "dispatched", false, 2));
        assertThat(again).isEqualTo(new InputReceipt(1, "dispatched", true, 2));
        assertThat(device.count("input") - before).isEqualTo(1);
        assertThat(lastCommand()).containsExactly("input", "motionevent", "DOWN", "120", "480");
    }

    @Test
    void aChangedPayloadUnderTheSameNumberIsAConflictAndSendsNothing() {
        String lease = lease();
        send(lease, 1, new Touch(0, 10, 10, TouchPhase.DOWN));
        long before = device.count("input");

        assertCode(() -> send(lease, 1, new Touch(0, 10, 11, TouchPhase.DOWN)), ErrorCode.IDEMPOTENCY_CONFLICT);
        assertCode(() -> send(lease, 1, new Rotate(4)), ErrorCode.IDEMPOTENCY_CONFLICT);
        assertThat(device.count("input")).isEqualTo(before);
    }

    @Test
    void aGapOrANumberBelowOneIsARevisionConflictAndTheNextNumberStillWorks() {
        String lease = lease();
        assertCode(() -> send(lease, 2, new Navigation(NavigationKey.BACK)), ErrorCode.REVISION_CONFLICT);
        assertCode(() -> send(lease, 0, new Navigation(NavigationKey.BACK)), ErrorCode.REVISION_CONFLICT);
        assertThat(send(lease, 1, new Navigation(NavigationKey.BACK)).repeated())
                .isFalse();
        assertCode(() -> send(lease, 3, new Navigation(NavigationKey.BACK)), ErrorCode.REVISION_CONFLICT);
    }

    @Test
    void aNumberOlderThanTheLast128ReceiptsIsCursorExpired() {
        String lease = lease();
        for (long sequence = 1; sequence <= DeviceInputs.RETAINED + 1; sequence++) {
            send(lease, sequence, new Key("ENTER", false));
        }
        assertCode(() -> send(lease, 1, new Key("ENTER", false)), ErrorCode.CURSOR_EXPIRED);
        assertThat(send(lease, 2, new Key("ENTER", false)).repeated()).isTrue();
    }

    @Test
    void aNewLeaseOrGenerationStartsAgainAtOne() {
        String lease = lease();
        send(lease, 1, new Key("A", false));
        assertThat(send(lease(), 1, new Key("A", false)).repeated()).isFalse();
        assertThat(inputs.send(device.serial(), "g2", lease, 1, new Key("A", false), CALL)
                        .repeated())
                .isFalse();
    }

    @Test
    void eachEventBecomesItsDocumentedCommands() {
        String lease = lease();
        int before = device.shellCommands().size();
        send(lease, 1, new Key("enter", true));
        send(lease, 2, new Key("enter", false));
        send(lease, 3, new Key("66", true));
        send(lease, 4, new Navigation(NavigationKey.OVERVIEW));
        send(lease, 5, new Rotate(5));
        send(lease, 6, new Touch(0, 4294967295L, 0, TouchPhase.UP));
        send(lease, 7, new InputEvent.Tap(120, 480));
        send(lease, 8, new InputEvent.Swipe(10, 20, 10, 20, 800));

        assertThat(device.shellCommands().subList(before, device.shellCommands().size()))
                .containsExactly(
                        List.of("input", "keyevent", "KEYCODE_ENTER"),
                        List.of("input", "keyevent", "66"),
                        List.of("input", "keyevent", "KEYCODE_APP_SWITCH"),
                        List.of("settings", "put", "system", "accelerometer_rotation", "0"),
                        List.of("settings", "put", "system", "user_rotation", "1"),
                        List.of("input", "motionevent", "UP", "4294967295", "0"),
                        List.of("input", "tap", "120", "480"),
                        List.of("input", "swipe", "10", "20", "10", "20", "800"));
    }

    @Test
    void hostileTextReachesTheDeviceAsTheSameCharacters() {
        String lease = lease();
        List<String> hostile = List.of(
                "; reboot",
                "$(id) `id` $HOME",
                "a'b\"c\\d",
                "  two  spaces  ",
                "100% sure, 50%off, %d %",
                "*?[]{}~!#&|<>^=+-_:/.,@",
                "-n");
        long sequence = 1;
        for (String text : hostile) {
            send(lease, sequence++, new Text(text));
            assertThat(lastCommand()).as(text).hasSize(3).startsWith("input", "text");
            assertThat(TypedByInputText.typed(lastCommand().get(2))).as(text).isEqualTo(text);
        }
    }

    @Test
    void textTheDeviceCannotTypeIsRefusedAndConsumesNoNumber() {
        String lease = lease();
        int before = device.shellCommands().size();
        assertCode(() -> send(lease, 1, new Text("héllo")), ErrorCode.UNSUPPORTED_CAPABILITY);
        assertCode(() -> send(lease, 1, new Text("שלום 😀")), ErrorCode.UNSUPPORTED_CAPABILITY);
        assertCode(() -> send(lease, 1, new Text("line\nbreak")), ErrorCode.UNSUPPORTED_CAPABILITY);
        assertCode(() -> send(lease, 1, new Text("tab\there")), ErrorCode.UNSUPPORTED_CAPABILITY);
        assertCode(() -> send(lease, 1, new Text("100%sure")), ErrorCode.INVALID_ARGUMENT);
        assertCode(() -> send(lease, 1, new Touch(1, 0, 0, TouchPhase.DOWN)), ErrorCode.UNSUPPORTED_CAPABILITY);
        assertCode(() -> send(lease, 1, new Key("KEY;reboot", true)), ErrorCode.INVALID_ARGUMENT);
        assertThat(device.shellCommands()).hasSize(before);
        assertThat(send(lease, 1, new Text("100%")).inputSequence()).isEqualTo(1);
    }

    @Test
    void aCommandTheDeviceFailsLeavesOutcomeUnknownAndARetrySendsNothing() {
        String lease = lease();
        long before = device.count("input");
        inputExit = 1;
        try {
            assertCode(() -> send(lease, 1, new Navigation(NavigationKey.HOME)), ErrorCode.OUTCOME_UNKNOWN);
        } finally {
            inputExit = 0;
        }
        assertThat(send(lease, 1, new Navigation(NavigationKey.HOME)))
                .isEqualTo(new InputReceipt(1, "outcome_unknown", true, 2));
        assertThat(device.count("input") - before).isEqualTo(1);
    }
}
