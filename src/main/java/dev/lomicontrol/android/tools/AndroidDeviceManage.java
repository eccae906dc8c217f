package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AndroidDevices;
import dev.lomicontrol.android.AvdDirectory;
import dev.lomicontrol.android.AvdFiles;
import dev.lomicontrol.android.SdkPackages;
import dev.lomicontrol.android.SdkProcess;
import dev.lomicontrol.android.api.AndroidInputs;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_android_device_manage: an AVD created ({@code avdmanager create avd -n NAME -k IMAGE -d
 * PROFILE -p <avd home>/NAME.avd}, its custom-hardware question answered {@code no}, then the
 * hardware written into its config.ini), modified (a checked edit of config.ini), wiped (its user
 * data deleted, {@link AvdFiles#wipe}) or deleted ({@code avdmanager delete avd -n NAME}). Each
 * names the {@code expectedDevicesRevision} of the inventory ({@link AvdFiles#revision}: every AVD's
 * .ini and config.ini); another one is REVISION_CONFLICT and nothing is written. Wipe and delete need
 * {@code confirmation} equal to the AVD's exact name. An AVD an emulator runs (adb lists it, or its
 * folder holds the emulator's {@code *.lock} files) is not modified, wiped or deleted (TARGET_BUSY).
 * Every action waits for the admin's approval of its exact plan ({@code awaiting_user}); the checks
 * run again when it is approved. The reference's {@code recover}, {@code cleanup},
 * {@code restore_metadata}, {@code remove_package} and {@code rollback_package} work on the
 * reference's own device manifest, which Linux's SDK has no equivalent of: UNSUPPORTED_CAPABILITY.
 */
final class AndroidDeviceManage {

    static final Duration DEADLINE = Duration.ofSeconds(120);
    static final Duration RUNNING_CHECK = Duration.ofSeconds(5);

    private final WorkspaceAccess access;
    private final OperationRunner runner;
    private final AndroidSdk sdk;

    AndroidDeviceManage(WorkspaceAccess access, OperationRunner runner, AndroidSdk sdk) {
        this.access = access;
        this.runner = runner;
        this.sdk = sdk;
    }

    Object manage(Session session, AndroidSpecs.DeviceManageInput in) {
        WorkspaceAccess.Listed listed = access.resolve(session, in.workspaceId());
        AndroidInputs.DeviceAction action = in.action();
        String kind = unsupported(action);
        Step step = step(action);
        ObjectNode plan = JsonNodeFactory.instance.objectNode();
        plan.put("action", kind + " an Android Virtual Device");
        plan.put("avd", step.name());
        plan.put("avdHome", sdk.avds().home().toString());
        plan.put("client", session.clientLabel());
        step.describe(plan);
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.DEVICE_MANAGE, in, listed, "avd:" + step.name(), OptionalLong.empty());
        return runner.afterApproval(
                request,
                () -> step(action),
                kind + " the Android Virtual Device " + step.name() + " for " + session.clientLabel(),
                plan,
                operation -> {
                    session.requireAlive();
                    step(action).apply();
                    return Encoder.encode(new AndroidResults.Management(
                            in.workspaceId(),
                            "native-" + dev.lomicontrol.core.Ids.randomHex(new java.security.SecureRandom(), 8),
                            Optional.of(AndroidManagedDevices.idOf(step.name())),
                            Optional.of(AvdFiles.revision(sdk.avds())),
                            Optional.of(SdkPackages.revision(SdkPackages.installed(sdk.root())))));
                });
    }

    /** One checked action: its AVD's name, what the admin is shown, and its effect. */
    private interface Step {
        String name();

        void describe(ObjectNode plan);

        void apply();
    }

    /** The action's word; UNSUPPORTED_CAPABILITY for the reference's manifest actions. */
    private static String unsupported(AndroidInputs.DeviceAction action) {
        String tag;
        if (action instanceof AndroidInputs.Create) {
            return "create";
        } else if (action instanceof AndroidInputs.Modify) {
            return "modify";
        } else if (action instanceof AndroidInputs.Wipe) {
            return "wipe";
        } else if (action instanceof AndroidInputs.Delete) {
            return "delete";
        } else if (action instanceof AndroidInputs.Recover) {
            tag = "recover";
        } else if (action instanceof AndroidInputs.Cleanup) {
            tag = "cleanup";
        } else if (action instanceof AndroidInputs.RestoreMetadata) {
            tag = "restore_metadata";
        } else if (action instanceof AndroidInputs.RemovePackage) {
            tag = "remove_package";
        } else {
            tag = "rollback_package";
        }
        throw new LomiException(
                ErrorCode.UNSUPPORTED_CAPABILITY,
                "device_manage action " + tag + " works on the reference's own device manifest, which the Android"
                        + " SDK on Linux has no equivalent of; on Linux: create, modify, wipe, delete (packages:"
                        + " lomi_android_setup_plan and lomi_android_setup_apply)");
    }

    /** The action checked against the AVDs now (revision, name, confirmation, not running). */
    private Step step(AndroidInputs.DeviceAction action) {
        AvdDirectory avds = sdk.avds();
        String revision = AvdFiles.revision(avds);
        if (action instanceof AndroidInputs.Create create) {
            current(revision, create.expectedDevicesRevision().value());
            return creating(avds, create);
        }
        String expected;
        AndroidSpecs.DeviceId id;
        if (action instanceof AndroidInputs.Modify modify) {
            expected = modify.expectedDevicesRevision().value();
            id = modify.deviceId();
        } else if (action instanceof AndroidInputs.Wipe wipe) {
            expected = wipe.expectedDevicesRevision().value();
            id = wipe.deviceId();
        } else {
            AndroidInputs.Delete delete = (AndroidInputs.Delete) action;
            expected = delete.expectedDevicesRevision().value();
            id = delete.deviceId();
        }
        current(revision, expected);
        AvdDirectory.Avd avd = avds.list().stream()
                .filter(a -> AndroidManagedDevices.idOf(a.name()).equals(id.value()))
                .findFirst()
                .orElseThrow(() -> new LomiException(
                        ErrorCode.TARGET_NOT_FOUND,
                        "no AVD " + id + " in " + avds.home() + "; read the inventory (lomi_android_setup_plan)"));
        notRunning(avd);
        if (action instanceof AndroidInputs.Modify modify) {
            Map<String, String> changes = new LinkedHashMap<>(AndroidManagedDevices.lines(modify.hardware()));
            changes.put("avd.ini.displayname", modify.name().value());
            changes.put("hw.device.name", modify.profile());
            return step(avd.name(), plan -> changes.forEach(plan::put), () -> AvdFiles.edit(avd, changes));
        }
        String confirmation = action instanceof AndroidInputs.Wipe wipe
                ? wipe.confirmation()
                : ((AndroidInputs.Delete) action).confirmation();
        if (!confirmation.equals(avd.name())) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "confirmation must be the device's exact name '" + avd.name() + "'; nothing was changed");
        }
        if (action instanceof AndroidInputs.Wipe) {
            return step(
                    avd.name(),
                    plan -> plan.put("deletes", "userdata-qemu.img*, cache.img*, snapshots/"),
                    () -> AvdFiles.wipe(avd));
        }
        List<String> argv = List.of("delete", "avd", "-n", avd.name());
        return step(
                avd.name(), plan -> plan.put("argv", "avdmanager " + String.join(" ", argv)), () -> run(argv, "no"));
    }

    private Step creating(AvdDirectory avds, AndroidInputs.Create create) {
        String name = create.name().value();
        if (!name.matches("[A-Za-z0-9._-]{1,100}") || name.startsWith("-") || name.startsWith(".")) {
            throw new LomiException(
                    ErrorCode.INVALID_ARGUMENT,
                    "an AVD name is 1-100 of [A-Za-z0-9._-], not starting with '-' or '.': " + name);
        }
        if (avds.list().stream().anyMatch(a -> a.name().equals(name))) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "an AVD named " + name + " exists already");
        }
        if (SdkPackages.installed(sdk.root()).stream().noneMatch(p -> p.id().equals(create.image()))) {
            throw new LomiException(
                    ErrorCode.TARGET_NOT_FOUND,
                    "the system image " + create.image() + " is not installed in " + sdk.root()
                            + "; install it (lomi_android_setup_plan, lomi_android_setup_apply)");
        }
        List<String> argv = List.of(
                "create",
                "avd",
                "-n",
                name,
                "-k",
                create.image(),
                "-d",
                create.profile(),
                "-p",
                avds.home().resolve(name + ".avd").toString());
        Map<String, String> hardware = AndroidManagedDevices.lines(create.hardware());
        return step(
                name,
                plan -> {
                    plan.put("argv", "avdmanager " + String.join(" ", argv));
                    hardware.forEach(plan::put);
                },
                () -> {
                    run(argv, "no");
                    AvdDirectory.Avd made = sdk.avds().list().stream()
                            .filter(a -> a.name().equals(name))
                            .findFirst()
                            .orElseThrow(() -> new LomiException(
                                    ErrorCode.OUTCOME_UNKNOWN,
                                    "avdmanager finished but no AVD " + name + " is listed"));
                    AvdFiles.edit(made, hardware);
                });
    }

    private void run(List<String> argv, String answer) {
        SdkProcess.Result result = sdk.avdmanager(argv, DEADLINE, output -> Optional.of(answer));
        if (result.exit() != 0) {
            throw new LomiException(
                    ErrorCode.OUTCOME_UNKNOWN,
                    "avdmanager " + argv.get(0) + " failed (" + AndroidSdk.tail(result) + ")");
        }
    }

    private static void current(String revision, String expected) {
        if (!revision.equals(expected)) {
            throw new LomiException(
                    ErrorCode.REVISION_CONFLICT,
                    "the AVDs are at devicesRevision " + revision + ", not " + expected
                            + "; read the inventory again (lomi_android_setup_plan); nothing was changed");
        }
    }

    /** TARGET_BUSY when an emulator runs {@code avd}. */
    private void notRunning(AvdDirectory.Avd avd) {
        boolean listed = false;
        try {
            AndroidDevices devices = sdk.devices();
            listed = devices.list(RUNNING_CHECK).stream()
                    .anyMatch(d -> d.serial().isPresent()
                            && d.avd().map(a -> a.name().equals(avd.name())).orElse(false));
        } catch (RuntimeException unreachable) {
            // without an adb server the lock files below still tell
        }
        if (listed || AvdFiles.locked(avd)) {
            throw new LomiException(
                    ErrorCode.TARGET_BUSY,
                    "the AVD " + avd.name() + " is running as an emulator; stop it first (lomi_android_stop)"
                            + "; nothing was changed");
        }
    }

    private static Step step(String name, java.util.function.Consumer<ObjectNode> describe, Runnable apply) {
        return new Step() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void describe(ObjectNode plan) {
                describe.accept(plan);
            }

            @Override
            public void apply() {
                apply.run();
            }
        };
    }
}
