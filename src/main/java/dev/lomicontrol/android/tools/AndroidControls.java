package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelControl;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.terminal.api.TerminalResults;
import dev.lomicontrol.terminal.api.TerminalSpecs;
import dev.lomicontrol.tools.Encoder;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.Token;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * lomi_panel_control's Android form (the terminal feature serves the tool and hands this form over
 * through {@link dev.lomicontrol.operations.LivePanels#control}): a claim waits in
 * {@code awaiting_user} until the admin approves the exact device, session and current holder, then
 * grants a new lease at the device's current generation (the previous holder's dies); a release ends
 * this session's lease at once. Both need the panel, its device online and the caller's generation
 * current (else STALE_GENERATION) and the layout at {@code expectedRevision}. Whether the host has
 * adb is asked of the probe the dispatch checks every call against (the feature's {@code host}),
 * not of this process's environment.
 */
final class AndroidControls {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Layout layout;
    private final OperationRunner runner;
    private final AndroidPanels live;
    private final AndroidLeases leases;
    private final Supplier<HostProbe> host;

    AndroidControls(
            Layout layout, OperationRunner runner, AndroidPanels live, AndroidLeases leases, Supplier<HostProbe> host) {
        this.layout = layout;
        this.runner = runner;
        this.live = live;
        this.leases = leases;
        this.host = host;
    }

    Object control(Session session, PanelControl in) {
        Optional<String> unqualified = HostQualification.reason(host.get(), HostNeed.ANDROID_DEVICES);
        if (unqualified.isPresent()) {
            throw new LomiException(
                    ErrorCode.HOST_UNQUALIFIED,
                    "lomi_panel_control of an Android device: " + unqualified.get() + "; nothing was done");
        }
        AndroidSpecs.DeviceId deviceId = new AndroidSpecs.DeviceId(in.deviceId().value());
        AndroidPanels.Bound bound = live.bound(session, in.workspaceId(), in.panelId(), deviceId, in.generation());
        String holder = session.id().value();
        OperationRunner.Request operation = OperationRunner.Request.of(
                session,
                in.spec(),
                in.input(),
                bound.listed(),
                bound.deviceId(),
                OptionalLong.of(in.expectedRevision()));
        if (!in.claim()) {
            return runner.immediate(
                    operation,
                    () -> {
                        Revisions.require(in.expectedRevision(), layout.revision());
                        if (!leases.heldBy(bound.deviceId(), holder)) {
                            throw new LomiException(
                                    ErrorCode.INVALID_ARGUMENT,
                                    "this session holds no input lease on device " + bound.deviceId());
                        }
                    },
                    done -> {
                        leases.release(bound.deviceId(), holder);
                        return answer(in, bound, Optional.empty());
                    });
        }
        ObjectNode plan = JSON.objectNode();
        plan.put("action", "claim Android device input");
        plan.put("deviceId", bound.deviceId());
        plan.put("serial", bound.serial());
        plan.put("generation", bound.generation());
        plan.put("panelId", bound.panelId());
        plan.put("client", session.clientLabel());
        plan.put("session", holder);
        plan.put(
                "currentHolder",
                leases.of(bound.deviceId()).map(AndroidLeases.Lease::holder).orElse("nobody"));
        return runner.afterApproval(
                operation,
                () -> Revisions.require(in.expectedRevision(), layout.revision()),
                "give " + session.clientLabel() + " the input (touch, keys, text) of Android device " + bound.serial(),
                plan,
                done -> {
                    session.requireAlive();
                    AndroidPanels.Bound now =
                            live.bound(session, in.workspaceId(), in.panelId(), deviceId, in.generation());
                    AndroidLeases.Lease lease = leases.grant(now.deviceId(), holder, now.generation());
                    return answer(in, now, Optional.of(lease.id()));
                });
    }

    private static JsonNode answer(PanelControl in, AndroidPanels.Bound bound, Optional<String> leaseId) {
        return Encoder.encode(new TerminalResults.AndroidControlled(
                in.workspaceId(),
                new Token(bound.panelId()),
                in.claim() ? TerminalSpecs.ControlAction.CLAIM : TerminalSpecs.ControlAction.RELEASE,
                new Token(bound.deviceId()),
                new Token(bound.generation()),
                leaseId.map(Hex32::new),
                leaseId.isPresent()));
    }
}
