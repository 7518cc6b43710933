"""Board images with Pillow (imports ``rules`` only). Filled by the render issue."""
