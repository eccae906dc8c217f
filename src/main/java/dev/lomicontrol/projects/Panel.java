package dev.lomicontrol.projects;

import dev.lomicontrol.core.WorkspaceId;
import java.util.Optional;

/**
 * One panel of a workspace. A terminal panel names the terminal session it was started with and the
 * session that created it (its owner); the panel outlives the process.
 *
 * @param cwd the working directory relative to the project root ({@code "."} for the root), or an editor panel's file
 * @param documentId the shared editor buffer an editor panel shows
 * @param gitView a git panel's view as canonical JSON (a diff of one path or one commit); a chat panel's {@code {type:"chat", conversationId}}
 */
public record Panel(
        String id,
        WorkspaceId workspace,
        PanelKind kind,
        String title,
        Optional<String> terminalSessionId,
        Optional<String> ownerSession,
        Optional<String> profile,
        String cwd,
        Optional<String> documentId,
        Optional<String> gitView) {}
