package dev.lomicontrol.tools.settings;

import dev.lomicontrol.tools.ToolSpec;
import java.util.List;

/** The settings tools: each declared once, with its input and output records. */
public final class SettingsSpecs {

    private SettingsSpecs() {}

    public static final List<ToolSpec<?>> ALL = List.of();
}
