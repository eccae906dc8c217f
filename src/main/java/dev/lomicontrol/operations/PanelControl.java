package dev.lomicontrol.operations;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.projects.PanelKind;
import dev.lomicontrol.tools.Durable;
import dev.lomicontrol.tools.Token;
import dev.lomicontrol.tools.ToolSpec;

/**
 * lomi_panel_control's form for a panel kind whose feature is not the one that registers the tool
 * (an Android device's input lease): the terminal feature serves the tool and hands this form to
 * {@link LivePanels#control} of the feature that owns {@link #kind()}, so each feature keeps its
 * own leases and neither imports the other.
 *
 * @param spec the tool (for the operation's receipt)
 * @param input the bound input, as the receipt's fingerprint
 * @param claim claim (the admin approves) or release
 * @param action the action as the caller spelled it, for the answer
 */
public record PanelControl(
        PanelKind kind,
        ToolSpec<?> spec,
        Durable input,
        WorkspaceId workspaceId,
        Token panelId,
        Token deviceId,
        Token generation,
        boolean claim,
        String action,
        long expectedRevision) {}
