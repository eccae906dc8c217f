package dev.lomicontrol.git.tools;

import dev.lomicontrol.json.StreamingJson;
import dev.lomicontrol.operations.LivePanels;
import dev.lomicontrol.projects.Panel;
import java.util.Optional;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.JsonNode;

/**
 * Git panels as the layout sees them: read-only, nothing live behind them; each shows the diff or
 * commit view {@code lomi_git_open} stored with it (a nested repository's view names its
 * {@code repositoryRelative}).
 */
final class GitPanels implements LivePanels {

    /** The stored view is read back without a mapper (ADR 0015): the tree a default mapper reads. */
    private static final JsonFactory JSON = JsonFactory.builder().build();

    /** The stored view as JSON, keys in their canonical order. */
    @Override
    public Optional<JsonNode> view(Panel panel) {
        return panel.gitView().map(canonical -> StreamingJson.parse(JSON, canonical));
    }
}
