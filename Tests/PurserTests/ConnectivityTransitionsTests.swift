import Purser
import Testing

/// When the network path monitor's answers become a recovery trigger.
@Suite("Connectivity transitions")
struct ConnectivityTransitionsTests {
    @Test("only a usable path after an unusable one triggers recovery; the first answer and repeats do not")
    func transitions() {
        var transitions = ConnectivityTransitions()
        let answers = [true, true, false, false, true, true, false, true]
        let triggers = answers.map { transitions.observe(satisfied: $0) }
        #expect(triggers == [nil, nil, nil, nil, .networkAvailable, nil, nil, .networkAvailable])
    }

    @Test("a launch without a connection triggers recovery when the connection comes")
    func offlineAtLaunch() {
        var transitions = ConnectivityTransitions()
        #expect(transitions.observe(satisfied: false) == nil)
        #expect(transitions.observe(satisfied: true) == .networkAvailable)
    }
}
