package dev.lomicontrol.console;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.ModelFacing;
import dev.lomicontrol.tools.ToolSelection;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.Toolset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tool selection {@code client register} writes into a client's entry, and how the console
 * describes a selection. Without options it is this host's ({@link HostProbe#toolsets}): every
 * toolset but {@code browser} where no Chromium is found and {@code android} where no adb is;
 * {@code --toolsets LIST|all} replaces the toolsets and {@code --read-only} serves only the tools
 * that change nothing.
 */
final class ClientToolsets {

    /** The selection register writes, and why: chosen on the command line, or this host's default naming what it left out. */
    record Choice(ToolSelection selection, String why) {}

    private ClientToolsets() {}

    /**
     * The selection for {@code toolsets} ({@code ""}: this host's) and {@code readOnly}.
     *
     * @throws UsageException for an unknown toolset, naming every valid one
     */
    static Choice choose(HostProbe host, String toolsets, boolean readOnly) {
        if (!toolsets.isBlank()) {
            try {
                return new Choice(ToolSelection.parse(toolsets, readOnly), "chosen with " + ToolSelection.OPTION);
            } catch (IllegalArgumentException e) {
                throw new UsageException(String.valueOf(e.getMessage()));
            }
        }
        ToolSelection found = host.toolsets();
        List<String> leftOut = new ArrayList<>();
        host.leftOut().forEach((toolset, why) -> leftOut.add(toolset.wireName() + " (" + why + ")"));
        return new Choice(
                new ToolSelection(found.toolsets(), readOnly),
                (leftOut.isEmpty()
                                ? "this host's default: every toolset"
                                : "this host's default: all but " + String.join(" and ", leftOut))
                        + "; " + ToolSelection.OPTION + " LIST|all chooses");
    }

    /** {@code core,layout,… (64 tools, 61.2 KB per model request)}, {@code all, read-only (…)}: the toolsets, read-only, and what they cost a model. */
    static String describe(ToolSelection selection) {
        List<ToolSpec<?>> tools = ToolCatalog.standard().servedBy(selection);
        return selection.names() + (selection.readOnly() ? ", read-only" : "") + " (" + tools.size() + " tools, "
                + String.format(Locale.ROOT, "%.1f KB", ModelFacing.bytes(tools) / 1000.0) + " per model request)";
    }

    /** The selection in {@code client list --json}. */
    static ConsoleJson.Selection json(ToolSelection selection) {
        List<ToolSpec<?>> tools = ToolCatalog.standard().servedBy(selection);
        return new ConsoleJson.Selection(
                selection.toolsets().stream().map(Toolset::wireName).toList(),
                selection.readOnly(),
                tools.size(),
                ModelFacing.bytes(tools));
    }
}
