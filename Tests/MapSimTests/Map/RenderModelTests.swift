import Testing
@testable import MapSim

/// The render loop driven directly, one test per input.
@Suite("RenderModel")
struct RenderModelTests {
    @Test func framesLandOnTheNext60HzTick() {
        var model = RenderModel()
        #expect(model.handle(.invalidate, at: .zero) == [.scheduleFrame(at: .zero)])
        #expect(model.handle(.invalidate, at: .zero).isEmpty)
        #expect(model.handle(.beginFrame, at: .zero).isEmpty)
        #expect(model.handle(.invalidate, at: .zero) == [.scheduleFrame(at: SimTime(microseconds: 16_666))])
        _ = model.handle(.beginFrame, at: SimTime(microseconds: 16_666))
        #expect(model.handle(.invalidate, at: SimTime(microseconds: 20_000)) == [.scheduleFrame(at: SimTime(microseconds: 33_333))])
    }

    @Test func mapLoadedOnceThenIdleWhenQuiet() {
        var model = RenderModel()
        _ = model.handle(.invalidate, at: .zero)
        _ = model.handle(.beginFrame, at: .zero)
        let animating = model.handle(.finishFrame(.init(isFull: true, placementChanged: true, animationEnd: .milliseconds(20))), at: .zero)
        #expect(animating == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: true))),
                              .emit(.mapLoaded), .scheduleFrame(at: SimTime(microseconds: 16_666))])
        _ = model.handle(.beginFrame, at: SimTime(microseconds: 16_666))
        let stillAnimating = model.handle(.finishFrame(.init(isFull: true, placementChanged: false, animationEnd: .milliseconds(20))), at: SimTime(microseconds: 16_666))
        #expect(stillAnimating == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: true, placementChanged: false))),
                                   .scheduleFrame(at: SimTime(microseconds: 33_333))])
        _ = model.handle(.beginFrame, at: SimTime(microseconds: 33_333))
        let quiet = model.handle(.finishFrame(.init(isFull: true, placementChanged: false, animationEnd: nil)), at: SimTime(microseconds: 33_333))
        #expect(quiet == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .full, needsRepaint: false, placementChanged: false))), .emit(.mapIdle)])
        #expect(model.isIdle)
    }

    @Test func partialFramesNeverMakeTheMapLoadedOrIdle() {
        var model = RenderModel()
        _ = model.handle(.beginFrame, at: .zero)
        let outcome = model.handle(.finishFrame(.init(isFull: false, placementChanged: false, animationEnd: nil)), at: .zero)
        #expect(outcome == [.emit(.renderFrameFinished(RenderFrameFinished(renderMode: .partial, needsRepaint: false, placementChanged: false)))])
    }

    @Test func aNewStyleLetsMapLoadedFireAgain() {
        var model = RenderModel()
        _ = model.handle(.beginFrame, at: .zero)
        _ = model.handle(.finishFrame(.init(isFull: true, placementChanged: false, animationEnd: nil)), at: .zero)
        #expect(model.hasFiredMapLoaded && model.isIdle)
        #expect(model.handle(.styleChanged, at: .zero).isEmpty)
        #expect(!model.hasFiredMapLoaded && !model.isIdle)
    }
}
