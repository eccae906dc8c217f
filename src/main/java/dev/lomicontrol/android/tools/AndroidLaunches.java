package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.AppLauncher;
import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.tools.Encoder;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * lomi_android_launch: a durable operation (retryEpoch + requestKey: a retry answers the earlier
 * operation and starts nothing again) that delivers the start intent of an app's activity, or its
 * launcher activity, through {@link AppLauncher} on the panel's device at the caller's generation
 * (else STALE_GENERATION), the layout at {@code expectedRevision}. It answers intent delivery only,
 * never that the app shows or does anything; {@code am}'s refusal settles the operation failed with
 * the engine's code (TARGET_NOT_FOUND for a missing package or activity).
 */
final class AndroidLaunches {

    /** How long resolving the launcher activity and {@code am start -W} may take together. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    private final Layout layout;
    private final OperationRunner runner;
    private final AndroidPanels live;

    AndroidLaunches(Layout layout, OperationRunner runner, AndroidPanels live) {
        this.layout = layout;
        this.runner = runner;
        this.live = live;
    }

    Object launch(Session session, AndroidSpecs.LaunchInput in) {
        GrantedDevices.requirePackage(session, in.packageName());
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), in.deviceId(), in.generation());
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.LAUNCH, in, bound.listed(), bound.deviceId(), OptionalLong.of(expected));
        return runner.immediate(request, () -> Revisions.require(expected, layout.revision()), operation -> {
            AppLauncher.Delivered delivered = new AppLauncher(bound.devices().bridge())
                    .launch(bound.serial(), in.packageName(), in.activity(), DEADLINE);
            String component = delivered.component();
            return Encoder.encode(new AndroidResults.Launched(
                    in.workspaceId(),
                    bound.deviceId(),
                    bound.generation(),
                    in.packageName(),
                    component.substring(component.indexOf('/') + 1),
                    true));
        });
    }
}
