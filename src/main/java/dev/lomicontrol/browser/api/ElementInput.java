package dev.lomicontrol.browser.api;

import dev.lomicontrol.core.WorkspaceId;
import dev.lomicontrol.tools.Hex32;
import dev.lomicontrol.tools.Token;

/** The element of a snapshot that a click, fill or key acts on, and the lease that allows it (the inputs' shared fields). */
public interface ElementInput {
    WorkspaceId workspaceId();

    Token panelId();

    Token browserGeneration();

    Token navigationId();

    Token snapshotId();

    Token elementRef();

    Hex32 leaseId();
}
