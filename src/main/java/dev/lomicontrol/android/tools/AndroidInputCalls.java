package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.AndroidInput;
import dev.lomicontrol.android.DeviceInputs;
import dev.lomicontrol.android.InputEvent;
import dev.lomicontrol.android.api.AndroidInputs;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * lomi_android_input: one event under the caller's input lease ({@link AndroidLeases}, else
 * CONTROL_REVOKED) at the device's current generation (else STALE_GENERATION), as a durable
 * operation keyed by the lease and {@code inputSequence} (the reference has no requestKey) and the
 * engine's receipt book ({@link DeviceInputs}: 128 per device, generation and lease). The same number
 * and payload answer the earlier operation (or, under a new retryEpoch, the stored receipt) and send
 * nothing; a changed payload under the same number is IDEMPOTENCY_CONFLICT; an event the device's
 * {@code input} cannot carry is refused before anything is sent ({@link AndroidInput}).
 */
final class AndroidInputCalls {

    /** How long the commands of one event may take. */
    static final Duration DEADLINE = Duration.ofSeconds(5);

    /** The receipt's identity: the input as given, keyed by its lease and number. */
    private record Keyed(RetryEpochId retryEpoch, RequestKey requestKey, AndroidSpecs.Input input) implements Durable {}

    private final OperationRunner runner;
    private final AndroidPanels live;
    private final AndroidLeases leases;
    private final DeviceInputs inputs;

    AndroidInputCalls(
            OperationRunner runner, AndroidPanels live, AndroidLeases leases, Supplier<AndroidDevices> devices) {
        this.runner = runner;
        this.live = live;
        this.leases = leases;
        this.inputs = new DeviceInputs(() -> devices.get().bridge());
    }

    Object input(Session session, AndroidSpecs.Input in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        leases.require(bound.deviceId(), session.id().value(), bound.generation(), in.leaseId());
        InputEvent event = event(in.event());
        long sequence = in.inputSequence().asLong();
        Keyed keyed = new Keyed(
                in.retryEpoch(), new RequestKey("android-input." + in.leaseId().value() + "." + sequence), in);
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.INPUT, keyed, bound.listed(), bound.deviceId(), OptionalLong.empty());
        return runner.immediate(request, () -> AndroidInput.commands(event), operation -> {
            DeviceInputs.InputReceipt receipt =
                    inputs.send(bound.serial(), bound.generation(), in.leaseId().value(), sequence, event, DEADLINE);
            return Encoder.encode(new AndroidResults.InputResult(
                    in.workspaceId(), bound.deviceId(), bound.generation(), Long.toString(receipt.inputSequence())));
        });
    }

    /** The contract's event as the engine's, field for field. */
    static InputEvent event(AndroidInputs.InputEvent event) {
        if (event instanceof AndroidInputs.Touch touch) {
            return new InputEvent.Touch(
                    touch.identifier(),
                    touch.x(),
                    touch.y(),
                    InputEvent.TouchPhase.valueOf(touch.phase().name()));
        }
        if (event instanceof AndroidInputs.Tap tap) {
            return new InputEvent.Tap(tap.x(), tap.y());
        }
        if (event instanceof AndroidInputs.Swipe swipe) {
            return new InputEvent.Swipe(swipe.x(), swipe.y(), swipe.toX(), swipe.toY(), swipe.durationMs());
        }
        if (event instanceof AndroidInputs.Key key) {
            return new InputEvent.Key(key.key(), key.down());
        }
        if (event instanceof AndroidInputs.Navigation navigation) {
            return new InputEvent.Navigation(
                    InputEvent.NavigationKey.valueOf(navigation.key().name()));
        }
        if (event instanceof AndroidInputs.Rotate rotate) {
            return new InputEvent.Rotate(rotate.quarterTurns());
        }
        if (event instanceof AndroidInputs.Text text) {
            return new InputEvent.Text(text.text());
        }
        throw new IllegalStateException("an input event of an unknown kind: " + event.getClass());
    }
}
