package dev.lomicontrol.android.tools;

import dev.lomicontrol.android.api.AndroidResults;
import dev.lomicontrol.android.api.AndroidSpecs;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.Revisions;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Panel;
import dev.lomicontrol.tools.Encoder;
import java.util.OptionalLong;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code lomi_android_open}: a panel bound to one device of the adb server or AVD home, as a durable
 * operation at the layout revision (the same requestKey answers the same operation, nothing is added
 * twice). It never starts anything: a running device seen online gets its generation minted (listed
 * by lomi_android_list), an AVD that is not running gets none until it runs. A device outside the
 * session's grant is refused before the receipt (SCOPE_DENIED, {@link GrantedDevices}).
 */
final class AndroidOpen {

    private final Layout layout;
    private final PanelTargets panels;
    private final OperationRunner runner;
    private final AndroidPanels live;

    AndroidOpen(Layout layout, PanelTargets panels, OperationRunner runner, AndroidPanels live) {
        this.layout = layout;
        this.panels = panels;
        this.runner = runner;
        this.live = live;
    }

    ObjectNode open(Session session, AndroidSpecs.OpenInput in) {
        WorkspaceAccess.Listed listed = panels.workspace(session, in.workspaceId());
        long expected = in.expectedRevision().asLong();
        OperationRunner.Request request = OperationRunner.Request.of(
                session, AndroidSpecs.OPEN, in, listed, in.deviceId().value(), OptionalLong.of(expected));
        return runner.immediate(request, () -> admit(session, in.deviceId(), expected), operation -> {
            AndroidPanels.Resolved device = live.resolve(session, in.deviceId());
            live.opened(device);
            Panel panel = layout.change(
                    OptionalLong.of(expected),
                    edit -> edit.addAndroidPanel(
                            listed.workspace().id(), device.name(), session.id().value(), device.deviceId()));
            return Encoder.encode(new AndroidResults.Panel(in.workspaceId(), panel.id(), device.deviceId()));
        });
    }

    /** Before the receipt: the layout revision, and the device in the session's grant (SCOPE_DENIED). */
    private void admit(Session session, AndroidSpecs.DeviceId deviceId, long expected) {
        Revisions.require(expected, layout.revision());
        live.requireGranted(session, deviceId);
    }
}
