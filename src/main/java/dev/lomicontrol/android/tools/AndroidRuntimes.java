package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.DeviceState;
import dev.lomicontrol.android.Emulators;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.core.OperationId;
import dev.lomicontrol.ledger.EffectState;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.OperationState;
import dev.lomicontrol.operations.OperationJson;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * lomi_android_start and lomi_android_stop, for the AVDs of the user's SDK. Start is a durable
 * operation (a retried requestKey answers the same operation and boots nothing twice) that answers
 * {@code running} at once: the boot ({@link Emulators#start}, a console port pair free in
 * 5554..5682 — {@link EmulatorPorts}) runs on its own thread and settles it — succeeded with a fresh
 * generation minted for {@code emulator-N}, or failed with the engine's code (DEADLINE_EXCEEDED past
 * the boot deadline, its process group ended). An AVD already running or booting answers
 * TARGET_BUSY; a device that is not an AVD (a phone) UNSUPPORTED_CAPABILITY. Stop takes the
 * generation: the console's {@code kill} (through the real {@code adb emu kill}), then signals to
 * the process group; the generation ends, so any call with it answers STALE_GENERATION. Only the
 * emulators this broker started can be stopped (it holds their process groups).
 */
final class AndroidRuntimes implements AutoCloseable {

    /** How long a stop may take: the console's kill, then SIGTERM, then SIGKILL (see {@link Emulators#stop}). */
    static final Duration STOP_DEADLINE = Duration.ofSeconds(20);

    private static final Logger log = LoggerFactory.getLogger(AndroidRuntimes.class);

    /** A booted emulator this broker started, and the engine that started it (the one that stops it). */
    private record Running(Emulators engine, Emulators.Booted booted) {}

    /** What a start's admission found: the AVD to boot and the device's listed name. */
    private record Plan(String avdName, String name) {}

    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final AndroidPanels live;
    private final Supplier<AndroidDevices> devices;
    private final AndroidEmulators emulators;
    private final Supplier<Duration> bootDeadline;
    private final EmulatorPorts ports = new EmulatorPorts();
    private final Set<String> booting = ConcurrentHashMap.newKeySet();
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final ExecutorService boots = Executors.newCachedThreadPool(r -> {
        Thread thread = new Thread(r, "lomi-android-boot");
        thread.setDaemon(true);
        return thread;
    });

    AndroidRuntimes(
            Layout layout,
            PanelTargets panels,
            OperationRunner runner,
            AndroidPanels live,
            Supplier<AndroidDevices> devices,
            AndroidEmulators emulators,
            Supplier<Duration> bootDeadline) {
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
        this.live = live;
        this.devices = devices;
        this.emulators = emulators;
        this.bootDeadline = bootDeadline;
    }

    Object start(Session session, AndroidSpecs.StartInput in) {
        PanelTargets.PanelTarget target =
                panels.panel(session, in.workspaceId(), in.panelId().value(), Optional.empty());
        if (target.panel().kind() != PanelKind.ANDROID
                || !AndroidPanels.deviceOf(target.panel())
                        .equals(Optional.of(in.deviceId().value()))) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "panel " + in.panelId() + " is not an Android panel of device " + in.deviceId()
                            + "; list the panels again");
        }
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.START, in, target.listed(), in.deviceId().value(), OptionalLong.of(expected));
        OperationRunner.Start<Plan> reservation = runner.reserveForDispatch(request, () -> {
            Revisions.require(expected, layout.revision());
            return plan(in.deviceId());
        });
        if (reservation instanceof OperationRunner.Start.Answered<Plan> earlier) {
            return OperationJson.of(earlier.operation());
        }
        OperationRunner.Start.Begun<Plan> begun = (OperationRunner.Start.Begun<Plan>) reservation;
        Operation operation = begun.running();
        Plan plan = begun.plan();
        if (!booting.add(plan.avdName())) {
            return OperationJson.of(failed(operation.id(), busy(plan.avdName(), "is booting")));
        }
        try {
            boots.execute(() -> boot(operation.id(), in, plan));
        } catch (RejectedExecutionException closing) {
            booting.remove(plan.avdName());
            return OperationJson.of(
                    failed(operation.id(), new LomiException(ErrorCode.APP_CLOSING, "the broker is shutting down")));
        }
        return OperationJson.of(operation);
    }

    Object stop(Session session, AndroidSpecs.StopInput in) {
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.STOP, in, bound.listed(), bound.deviceId(), OptionalLong.of(expected));
        return runner.immediate(
                request,
                () -> {
                    Revisions.require(expected, layout.revision());
                    if (!running.containsKey(bound.serial())) {
                        throw new LomiException(
                                ErrorCode.UNSUPPORTED_CAPABILITY,
                                bound.serial() + " was not started by this broker (lomi_android_start); only the"
                                        + " emulators it started can be stopped, a phone or another emulator is the"
                                        + " user's to stop");
                    }
                },
                operation -> {
                    Running stopping = running.remove(bound.serial());
                    if (stopping == null) {
                        throw new LomiException(
                                ErrorCode.STALE_GENERATION,
                                bound.serial() + " was stopped meanwhile; generation " + bound.generation() + " ended");
                    }
                    live.ended(bound.serial());
                    Emulators.Ended ended = stopping.engine().stop(stopping.booted(), STOP_DEADLINE);
                    log.info(
                            "{} ({}) stopped: {}",
                            bound.serial(),
                            stopping.booted().avdName(),
                            ended);
                    return Encoder.encode(new AndroidResults.RuntimeResult(
                            in.workspaceId(), bound.deviceId(), bound.generation(), false, true));
                });
    }

    /** The AVD {@code deviceId} names, not running nor booting; else the code that says why not. */
    private Plan plan(AndroidSpecs.DeviceId deviceId) {
        AndroidDevices.Listed device = devices.get().list(AndroidPanels.RESOLVE).stream()
                .filter(d -> AndroidPanels.idOf(d).equals(deviceId.value()))
                .findFirst()
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no device " + deviceId + " on this host's adb server or AVD home now; list them"
                                + " (lomi_android_list)"));
        if (device.avd().isEmpty()) {
            throw new LomiException(
                    ErrorCode.UNSUPPORTED_CAPABILITY,
                    AndroidList.name(device) + " is a device adb sees, not an AVD of this host's SDK: it cannot be"
                            + " started or stopped from here; use it as it is");
        }
        String avdName = device.avd().get().name();
        if (device.serial().isPresent()) {
            throw busy(avdName, "is already running as " + device.serial().get());
        }
        if (booting.contains(avdName)
                || running.values().stream().anyMatch(r -> r.booted().avdName().equals(avdName))) {
            throw busy(avdName, "is booting or running");
        }
        return new Plan(avdName, AndroidList.name(device));
    }

    /** The boot of one start, on its own thread; settles the operation. */
    private void boot(OperationId id, AndroidSpecs.StartInput in, Plan plan) {
        Optional<Integer> port = Optional.empty();
        try {
            Emulators engine = emulators.engine();
            port = Optional.of(ports.reserve(devices.get().bridge()));
            Emulators.Booted booted = engine.start(plan.avdName(), port.get(), bootDeadline.get());
            running.put(booted.serial(), new Running(engine, booted));
            live.opened(new AndroidPanels.Resolved(
                    in.deviceId().value(), Optional.of(booted.serial()), Optional.of(DeviceState.DEVICE), plan.name()));
            String generation = live.mint(booted.serial());
            runner.settle(
                    id,
                    OperationState.SUCCEEDED,
                    EffectState.COMPLETE,
                    Optional.of(Encoder.encode(new AndroidResults.RuntimeResult(
                            in.workspaceId(), in.deviceId().value(), generation, true, false))),
                    Optional.empty());
        } catch (LomiException refused) {
            runner.settleRefused(id, refused);
        } catch (RuntimeException e) {
            log.warn("the boot of {} failed: {}", plan.avdName(), e.toString());
            runner.settleUnknown(
                    id,
                    "the boot of " + plan.avdName() + " failed part-way ("
                            + e.getClass().getSimpleName()
                            + "); list the devices (lomi_android_list) to see whether it runs");
        } finally {
            port.ifPresent(ports::release);
            booting.remove(plan.avdName());
        }
    }

    private Operation failed(OperationId id, LomiException refused) {
        return runner.settleRefused(id, refused);
    }

    private static LomiException busy(String avdName, String why) {
        return new LomiException(
                ErrorCode.TARGET_BUSY,
                "AVD " + avdName + " " + why + "; its generation is in lomi_android_list (stop it with"
                        + " lomi_android_stop to boot it again)");
    }

    /** A boot in flight is interrupted: it ends its emulator's process group and settles failed. */
    @Override
    public void close() {
        boots.shutdownNow();
    }
}
