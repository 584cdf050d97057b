"""placeholder"""


class ModelProposer:
    def __init__(self, policy):
        self.policy = policy

    def propose(self, fixing, finding, best):
        return None

    def usage(self, usage):
        return usage
