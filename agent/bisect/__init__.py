"""`investigate bisect`: the commit that broke learning, found over git worktrees."""
