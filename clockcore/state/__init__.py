"""CLOCK-STATE.json v3: its schema, typed values, checking and writing them, the backup parts."""
