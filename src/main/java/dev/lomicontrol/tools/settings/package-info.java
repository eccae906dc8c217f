/**
 * The settings tool declarations: names, input and output records.
 */
@NullMarked
package dev.lomicontrol.tools.settings;

import org.jspecify.annotations.NullMarked;
