package dev.lomicontrol.browser.api;

import dev.lomicontrol.tools.WireName;

/** The keys lomi_browser_key dispatches (the reference spells them as DOM key names; {@link BrowserSpecs.KeyInput}). */
public enum Key {
    @WireName("Enter")
    ENTER,
    @WireName("Tab")
    TAB,
    @WireName("Escape")
    ESCAPE,
    @WireName("Backspace")
    BACKSPACE,
    @WireName("ArrowUp")
    ARROW_UP,
    @WireName("ArrowDown")
    ARROW_DOWN,
    @WireName("ArrowLeft")
    ARROW_LEFT,
    @WireName("ArrowRight")
    ARROW_RIGHT,
    @WireName("Home")
    HOME,
    @WireName("End")
    END
}
